// The one place where the simulator decides what the vendor specification leaves "not shown".
// Every choice below can be overridden by `--config FILE` (deep-merged), so the suite never silently depends on it.
// Merge rule: objects merge key by key; arrays, scalars and null replace the default as a whole.

/** Internal name of a dialog state; the wire string is `statuses[key]`. */
export type StatusKey = 'created' | 'inProcess' | 'operator' | 'completed';
export const STATUS_KEYS: readonly StatusKey[] = ['created', 'inProcess', 'operator', 'completed'];

export interface BotConfig {
  id: number;
  name: string;
  /** Relative share of the seeded dialogs that run on this bot (0: none). */
  weight: number;
  /** Every create on a blocked bot answers 403 "blocked instance". */
  blocked: boolean;
  /** URL of the bot's custom block, or null when the bot has none. `--callback-url` replaces it. */
  customBlockUrl: string | null;
}

/** A hidden limit: off while null; when hit, answers `status` (default 400) with `body` (default a problem). */
export interface LimitConfig {
  value: number;
  status?: number;
  body?: unknown;
}

/** The PageCount maximum; `clamp` true serves a larger PageCount as `value` instead of refusing it. */
export interface PageCountLimit extends LimitConfig {
  clamp?: boolean;
}

/**
 * Rate limit per credential (Basic login, vertex token), by `kind` (simulator/limits.ts): a token bucket (the
 * default: `burst` requests at once, refilled at `perSecond`), a fixed window (`perSecond` requests in each second of
 * the clock, `burst` unused) or a sliding-window log (`perSecond` requests in any second). A refusal carries Retry-After as delta-seconds (`retryAfterSeconds` fixes the value), an HTTP-date, or not at all;
 * every answer carries X-RateLimit-*, an earlier IETF draft's RateLimit-Limit/-Remaining/-Reset (`ratelimit`), the
 * current draft's RateLimit-Policy and RateLimit (`ietf`) or no such headers; `lying` announces twice the quota and
 * a counter a quota too high (for the suite's cross-check of announcements against throttles).
 */
export interface RateLimitConfig {
  kind?: 'token-bucket' | 'fixed-window' | 'sliding-window';
  perSecond: number;
  burst: number;
  status?: number;
  retryAfterSeconds?: number;
  retryAfter?: 'seconds' | 'http-date' | 'none';
  headers?: 'x-ratelimit' | 'ratelimit' | 'ietf' | 'none';
  lying?: boolean;
}

/** How a success without a documented body is answered: `ids-v1` {dialogId: uuid}, `ids-v2` {dialogId, dialogUUID}. */
export type SuccessBody = 'empty' | 'empty-object' | 'ids-v1' | 'ids-v2';
export interface SuccessReply {
  status: number;
  body: SuccessBody;
}

export interface SimulatorConfig {
  /** HTTP Basic credentials of V1/V2 (spec §5.1); the defaults are those of .env.example. */
  auth: { login: string; password: string; realm: string };
  /** true: the whole instance answers 403 "blocked instance" on V1, V2 and vertex (spec §5.3). */
  blocked: boolean;
  bots: BotConfig[];
  /** Wire strings of the states (spec §3: only in-process and completed are observed). */
  statuses: Record<StatusKey, string>;
  seed: {
    /** Seeded times lie within `days` before the anchor; null: the start of the current UTC day. */
    anchor: string | null;
    days: number;
    firstDialogId: number;
    firstFileId: number;
    statusWeights: Record<StatusKey, number>;
    /** Share of dialogs that are deleted (absent from lists, 403 on every operation). */
    deletedShare: number;
    /** Share of in-process dialogs with no message yet (V2 updated "" as observed, spec §2.1). */
    silentInProcessShare: number;
    /** Share of dialogs that carry a file-link data item. */
    fileShare: number;
    /** Share of file-link items marked deleted: true (their download answers 404). */
    deletedFileShare: number;
    /** Values of V2 `source`, picked uniformly; created dialogs get the first. */
    sources: string[];
    /** Values of data item `type` for answers and file links, picked uniformly. */
    dataTypes: string[];
  };
  lists: {
    defaultPageNumber: number;
    /** Spec §8.1 observed per_page 40. */
    defaultPageCount: number;
    order: 'newest-first' | 'oldest-first';
    /** How far the lists trail the store (ms): a search index behind a database (consistency not shown, §4.1). */
    lagMs: number;
  };
  /** The vendor's clock against the real one (seconds; its Date header and every stamp): clocks differ. */
  clock: { offsetSeconds: number };
  /** false: send and command check the body (400) before the dialog (404, 403, state); true: the dialog first. */
  validation: { dialogBeforeBody: boolean };
  /** start on a completed dialog (spec §3: from "any" state, condition not shown): 403, or 204 and in-process again. */
  transitions: { startCompleted: 'forbidden' | 'reopen' };
  /** Zone offset in which ISO times (`updated`) are written: "Z" or "+HH:MM" / "-HH:MM"; filters use the instant. */
  format: { updatedOffset: string };
  create: {
    /** GET /v2/dialog/{BotID}/create: body not shown (spec §4.2). */
    v2Get: SuccessReply;
    /** POST /v2/dialog/{BotID}/create with response false: status and body not shown, no identifiers (spec §4.2). */
    startedWithoutResponse: SuccessReply;
    /** Value of `response` when neither the body nor the query gives it. */
    responseDefault: boolean;
    /** How passed variables show up in the record: as data items, or not at all (null). */
    variableItem: { question: string; type: string } | null;
  };
  // Body field names below may be dotted paths: "message.text" is the field text of the object message.
  send: {
    /** Body fields accepted as the message text, first present wins (spec §4.2: not shown). */
    textFields: string[];
    /** States in which send is accepted; others answer `rejectStatus`. */
    allowedStatuses: StatusKey[];
    rejectStatus: number;
    /** Also record the operator message as a data item (null: only `updated` moves). */
    dataItem: { question: string; type: string } | null;
    /** true: a JSON object without the text at any of textFields answers 204 and sends nothing. */
    lenient: boolean;
    /** false: an operator's message leaves `updated` where it was (§4.1 defines Updated on the respondent's). */
    movesUpdated: boolean;
  };
  command: {
    commandField: string;
    botField: string;
    gotoValue: string;
    /** integer: {"bot_id": 202}; string: {"bot_id": "202"}. The other type answers 400. */
    botType: 'integer' | 'string';
    /** Status of a well-formed goto to a bot that does not exist. */
    unknownBotStatus: 404 | 400;
    /**
     * true: a JSON object without the command, with another command or without the bot answers `success` and changes
     * nothing; a bot it names is still checked (400 ill-typed, unknownBotStatus unknown).
     */
    lenient: boolean;
    success: SuccessReply;
  };
  files: {
    /** GET /v2/file/{fileId}: not shown (spec §4.1); same-as-v1 or not-found. */
    v2: 'same-as-v1' | 'not-found';
    /** Base of file links in data items; null: the simulator's own URL. */
    linkBase: string | null;
  };
  vertex: {
    /** send_message without `text` answers 400 (spec §4.3: only token is known to be required). */
    requireText: boolean;
  };
  /** The call to the block URL (spec §6.1: request shape not shown). */
  callback: {
    timeoutMs: number;
    /** Names (dotted paths nest in JSON, stay flat elsewhere) of the fields sent; null omits a field. */
    fields: { token: string | null; dialogId: string | null; dialogUuid: string | null; botId: string | null };
    /** json, form (urlencoded), multipart (form-data) body, or the fields in the query string of the block URL. */
    encoding: 'json' | 'form' | 'multipart' | 'query';
    /** GET goes with encoding query only. */
    method: 'POST' | 'PUT' | 'GET';
    /** A header carrying the token instead of fields.token; for Authorization the value is "Bearer <token>". */
    tokenHeader: string | null;
    /** false: the call carries no token at all (§1.5 says it does: only a drift turns this off). */
    sendsToken: boolean;
  };
  /**
   * Error body shape (spec §7: not shown): RFC 7807 problem+json, the same with `instance` (the request's path, as
   * RFC 9457 servers often write it), {"message": ...} JSON, plain text,
   * {"error": {"code", "message"}} JSON, {"errors": [{"field", "message"}]} JSON (a refused body field named apart
   * from the message, which then leaves it out), no body at all, or a vendor's own (`custom`).
   */
  errors: {
    format: ErrorFormat;
    /**
     * Format `custom`: the content type and the body of every error (`body`) and of a refused send or command field
     * (`fieldBody`, else `body`): a text, or a JSON value whose strings are filled in. {status}, {title}, {detail},
     * and of a refused field (simulator/refusal-wording.ts) {field}, {name}, {wants}, {value}, {values}, {segments},
     * {example}, {tree}; a JSON string that is one of them alone takes its JSON value ({status} a number, {segments}
     * and {values} lists, {example} the example value, {tree} the sentence under the field's segments).
     */
    custom: { contentType: string; body: unknown; fieldBody?: unknown } | null;
    /** A vendor's own words for a refused send or command field (§7: not shown); null: the simulator's. */
    wording: RefusalWording | null;
  };
  limits: {
    maxPageCount: PageCountLimit | null;
    maxTextLength: LimitConfig | null;
    maxVariablesBytes: LimitConfig | null;
    rate: RateLimitConfig | null;
    /** Request bodies above this answer 413. */
    maxBodyBytes: number;
  };
}

export type ErrorFormat = 'problem' | 'problem-instance' | 'json' | 'text' | 'envelope' | 'fields' | 'empty' | 'custom';

/**
 * How a vendor words a refused body field: the sentence for a field missing, of the wrong type, or without the one
 * value it takes (the command's goto), each with {field}, {name} (its last segment), {wants}, {value} and {values}. `field` writes the field
 * as a dotted path (`params.botId`), a JSON pointer (`/params/botId`), brackets (`params[botId]`) or by its outermost
 * name only (`params`, what goes there then a whole value: `{"botId": <integer>}`). `wants` says what goes there: a
 * type in `types`' words (`an integer`), a template (`types`' placeholders, `<integer>`), or an example (`123`).
 * `otherValues`: the commands it lists beside goto ({values}: `goto, wait, end`).
 */
export interface RefusalWording {
  field: 'dotted' | 'pointer' | 'brackets' | 'outermost';
  wants: 'words' | 'template' | 'example';
  types: { integer: string; string: string };
  missing: string;
  wrongType: string;
  wrongValue: string;
  otherValues: string[];
}

export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;

export const DEFAULT_CONFIG: SimulatorConfig = {
  auth: { login: 'qa-contract', password: 'sim-secret-7f3a9c', realm: 'dialog-bot' },
  blocked: false,
  bots: [
    { id: 101, name: 'Support bot', weight: 45, blocked: false, customBlockUrl: null },
    { id: 202, name: 'Goto target bot', weight: 30, blocked: false, customBlockUrl: null },
    { id: 303, name: 'Custom block bot', weight: 10, blocked: false, customBlockUrl: 'http://127.0.0.1:4011/callback' },
    { id: 505, name: 'Sales bot', weight: 15, blocked: false, customBlockUrl: null },
    { id: 909, name: 'Blocked bot', weight: 0, blocked: true, customBlockUrl: null },
  ],
  statuses: { created: 'new', inProcess: 'in-process', operator: 'operator', completed: 'completed' },
  seed: {
    anchor: null,
    days: 90,
    firstDialogId: 1001,
    firstFileId: 5001,
    statusWeights: { created: 10, inProcess: 30, operator: 10, completed: 50 },
    deletedShare: 0.05,
    silentInProcessShare: 0.2,
    fileShare: 0.25,
    deletedFileShare: 0.2,
    sources: ['web'],
    dataTypes: ['Text'],
  },
  lists: { defaultPageNumber: 1, defaultPageCount: 40, order: 'newest-first', lagMs: 0 },
  clock: { offsetSeconds: 0 },
  validation: { dialogBeforeBody: false },
  transitions: { startCompleted: 'forbidden' },
  format: { updatedOffset: '+00:00' },
  create: {
    v2Get: { status: 200, body: 'ids-v2' },
    startedWithoutResponse: { status: 204, body: 'empty' },
    responseDefault: false,
    variableItem: { question: '', type: 'Variable' },
  },
  send: { textFields: ['text'], allowedStatuses: ['operator'], rejectStatus: 403, dataItem: null, lenient: false, movesUpdated: true },
  command: {
    commandField: 'command',
    botField: 'bot_id',
    gotoValue: 'goto',
    botType: 'integer',
    unknownBotStatus: 404,
    lenient: false,
    success: { status: 204, body: 'empty' },
  },
  files: { v2: 'same-as-v1', linkBase: null },
  vertex: { requireText: true },
  callback: {
    timeoutMs: 10_000,
    fields: { token: 'token', dialogId: 'dialog_id', dialogUuid: 'dialog_uuid', botId: 'bot_id' },
    encoding: 'json',
    method: 'POST',
    tokenHeader: null,
    sendsToken: true,
  },
  errors: { format: 'problem', custom: null, wording: null },
  limits: { maxPageCount: null, maxTextLength: null, maxVariablesBytes: null, rate: null, maxBodyBytes: 1024 * 1024 },
};

/** A configuration that cannot be used: the message names the key and what it must be. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep merge of `patch` onto `base`; refuses keys the defaults do not have, so a typo cannot pass unnoticed. */
export function mergeConfig<T>(base: T, patch: unknown, where = 'config'): T {
  if (patch === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in base)) throw new ConfigError(`${where}.${key} is not a setting (known: ${Object.keys(base).join(', ')})`);
    out[key] = mergeConfig((base as Record<string, unknown>)[key], value, `${where}.${key}`);
  }
  return out as T;
}

type Check = (value: unknown) => string | undefined;
const int =
  (min: number): Check =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= min ? undefined : `an integer >= ${min}`;
const num =
  (min: number, max = Infinity): Check =>
  (v) =>
    typeof v === 'number' && v >= min && v <= max ? undefined : `a number in [${min}, ${max}]`;
const str: Check = (v) => (typeof v === 'string' ? undefined : 'a string');
const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'true or false');
const oneOf =
  (...values: Array<string | number>): Check =>
  (v) =>
    values.includes(v as string) ? undefined : `one of ${values.join(', ')}`;
const nullable =
  (check: Check): Check =>
  (v) =>
    v === null ? undefined : check(v);
const status: Check = (v) => (Number.isSafeInteger(v) && (v as number) >= 100 && (v as number) <= 599 ? undefined : 'an HTTP status');
const list =
  (check: Check, min = 0): Check =>
  (v) => {
    if (!Array.isArray(v) || v.length < min) return `a list of at least ${min} item(s)`;
    const bad = v.map(check).findIndex(Boolean);
    return bad < 0 ? undefined : `a list whose item ${bad} is ${check(v[bad])}`;
  };
const object =
  (shape: Record<string, Check>, optional: string[] = []): Check =>
  (v) => {
    if (!isPlainObject(v)) return `an object with ${Object.keys(shape).join(', ')}`;
    const unknown = Object.keys(v).find((key) => !(key in shape));
    if (unknown) return `an object without ${unknown} (known: ${Object.keys(shape).join(', ')})`;
    for (const [key, check] of Object.entries(shape)) {
      if (!(key in v) && optional.includes(key)) continue;
      const why = check(v[key]);
      if (why) return `an object whose ${key} is ${why}`;
    }
    return undefined;
  };
/** A body field name, or a dotted path of names ("message.text"). */
const fieldPath: Check = (v) => (typeof v === 'string' && /^[^.]+(\.[^.]+)*$/.test(v) ? undefined : 'a field name or a dotted path like "message.text"');
const headerName: Check = (v) => (typeof v === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v) ? undefined : 'an HTTP header name');
const zoneOffset: Check = (v) => (typeof v === 'string' && /^(Z|[+-](0\d|1[0-4]):[0-5]\d)$/.test(v) ? undefined : 'Z or an offset like +03:00 or -05:30');
const successReply = object({ status, body: oneOf('empty', 'empty-object', 'ids-v1', 'ids-v2') });
// §4.2 response "false: it [the response] does not [carry the dialog identifiers]": only the status and the rest of
// the body are the vendor's to choose.
const replyWithoutIds = object({ status, body: oneOf('empty', 'empty-object') });
const LIMIT_SHAPE = { value: num(0), status, body: () => undefined };
const limit = nullable(object(LIMIT_SHAPE, ['status', 'body']));

// Every leaf setting and what it must be; checked after the merge so the message names the final value.
const RULES: Record<string, Check> = {
  'auth.login': str,
  'auth.password': str,
  'auth.realm': str,
  blocked: bool,
  bots: list(object({ id: int(-Number.MAX_SAFE_INTEGER), name: str, weight: num(0), blocked: bool, customBlockUrl: nullable(str) }), 1),
  'statuses.created': str,
  'statuses.inProcess': str,
  'statuses.operator': str,
  'statuses.completed': str,
  'seed.anchor': nullable((v) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? undefined : 'an ISO 8601 date-time')),
  'seed.days': num(0),
  'seed.firstDialogId': int(1),
  'seed.firstFileId': int(1),
  'seed.statusWeights.created': num(0),
  'seed.statusWeights.inProcess': num(0),
  'seed.statusWeights.operator': num(0),
  'seed.statusWeights.completed': num(0),
  'seed.deletedShare': num(0, 1),
  'seed.silentInProcessShare': num(0, 1),
  'seed.fileShare': num(0, 1),
  'seed.deletedFileShare': num(0, 1),
  'seed.sources': list(str, 1),
  'seed.dataTypes': list(str, 1),
  'lists.defaultPageNumber': int(1),
  'lists.defaultPageCount': int(1),
  'lists.order': oneOf('newest-first', 'oldest-first'),
  'lists.lagMs': num(0),
  'clock.offsetSeconds': num(-Number.MAX_SAFE_INTEGER),
  'validation.dialogBeforeBody': bool,
  'transitions.startCompleted': oneOf('forbidden', 'reopen'),
  'format.updatedOffset': zoneOffset,
  'create.v2Get': successReply,
  'create.startedWithoutResponse': replyWithoutIds,
  'create.responseDefault': bool,
  'create.variableItem': nullable(object({ question: str, type: str })),
  'send.textFields': list(fieldPath, 1),
  'send.allowedStatuses': list(oneOf(...STATUS_KEYS)),
  'send.rejectStatus': status,
  'send.dataItem': nullable(object({ question: str, type: str })),
  'send.lenient': bool,
  'send.movesUpdated': bool,
  'command.commandField': fieldPath,
  'command.botField': fieldPath,
  'command.gotoValue': str,
  'command.botType': oneOf('integer', 'string'),
  'command.unknownBotStatus': oneOf(404, 400),
  'command.lenient': bool,
  'command.success': successReply,
  'files.v2': oneOf('same-as-v1', 'not-found'),
  'files.linkBase': nullable(str),
  'vertex.requireText': bool,
  'callback.timeoutMs': int(1),
  'callback.fields.token': nullable(fieldPath),
  'callback.fields.dialogId': nullable(fieldPath),
  'callback.fields.dialogUuid': nullable(fieldPath),
  'callback.fields.botId': nullable(fieldPath),
  'callback.encoding': oneOf('json', 'form', 'multipart', 'query'),
  'callback.method': oneOf('POST', 'PUT', 'GET'),
  'callback.tokenHeader': nullable(headerName),
  'callback.sendsToken': bool,
  'errors.format': oneOf('problem', 'problem-instance', 'json', 'text', 'envelope', 'fields', 'empty', 'custom'),
  'errors.custom': nullable(object({ contentType: str, body: () => undefined, fieldBody: () => undefined }, ['fieldBody'])),
  'errors.wording': nullable(
    object({
      field: oneOf('dotted', 'pointer', 'brackets', 'outermost'),
      wants: oneOf('words', 'template', 'example'),
      types: object({ integer: str, string: str }),
      missing: str,
      wrongType: str,
      wrongValue: str,
      otherValues: list(str),
    }),
  ),
  'limits.maxPageCount': nullable(object({ ...LIMIT_SHAPE, clamp: bool }, ['status', 'body', 'clamp'])),
  'limits.maxTextLength': limit,
  'limits.maxVariablesBytes': limit,
  'limits.rate': nullable(
    object(
      {
        kind: oneOf('token-bucket', 'fixed-window', 'sliding-window'),
        perSecond: num(0),
        burst: num(1),
        status,
        retryAfterSeconds: int(0),
        retryAfter: oneOf('seconds', 'http-date', 'none'),
        headers: oneOf('x-ratelimit', 'ratelimit', 'ietf', 'none'),
        lying: bool,
      },
      ['kind', 'status', 'retryAfterSeconds', 'retryAfter', 'headers', 'lying'],
    ),
  ),
  'limits.maxBodyBytes': int(1),
};

/** Two of `paths` that cannot both be set: equal, or one inside the other ("a" and "a.b"). */
function collision(paths: Array<[string, string | null]>): string | undefined {
  const set = paths.filter((p): p is [string, string] => p[1] !== null);
  for (const [keyA, a] of set) {
    for (const [keyB, b] of set) {
      if (keyA !== keyB && (a === b || b.startsWith(`${a}.`)))
        return `config.${keyA} ("${a}") and config.${keyB} ("${b}") cannot both be set: one holds the other`;
    }
  }
  return undefined;
}

/** Settings that are each valid but do not go together. */
function checkCombinations(config: SimulatorConfig): void {
  const { callback, command, lists, limits, statuses } = config;
  if (new Set(Object.values(statuses)).size !== STATUS_KEYS.length) {
    throw new ConfigError(`config.statuses must be ${STATUS_KEYS.length} different strings, got ${JSON.stringify(statuses)}`);
  }
  if (callback.method === 'GET' && callback.encoding !== 'query') {
    throw new ConfigError(`config.callback.method GET sends no body, so config.callback.encoding must be query, got ${callback.encoding}`);
  }
  if (callback.sendsToken && callback.fields.token === null && callback.tokenHeader === null) {
    throw new ConfigError('config.callback.fields.token and config.callback.tokenHeader are both null: the integration token would reach no one');
  }
  const clash =
    collision(Object.entries(callback.fields).map(([key, path]) => [`callback.fields.${key}`, path])) ??
    collision([
      ['command.commandField', command.commandField],
      ['command.botField', command.botField],
    ]);
  if (clash) throw new ConfigError(clash);
  const { format, custom, wording } = config.errors;
  if ((format === 'custom') !== (custom !== null)) {
    throw new ConfigError(
      `config.errors.custom is the body of format custom: set both or neither (format ${format}, custom ${custom === null ? 'null' : 'set'})`,
    );
  }
  if (wording?.field === 'outermost' && wording.wants === 'words') {
    throw new ConfigError('config.errors.wording.field outermost says what goes there as a whole value: wants must be template or example, not words');
  }
  const rate = limits.rate;
  if (rate?.kind && rate.kind !== 'token-bucket' && !(Number.isInteger(rate.perSecond) && rate.perSecond >= 1)) {
    throw new ConfigError(`config.limits.rate.perSecond of a ${rate.kind} counts requests in a second: a whole number of at least 1, got ${rate.perSecond}`);
  }
  const max = limits.maxPageCount;
  if (max && !max.clamp && lists.defaultPageCount > max.value) {
    throw new ConfigError(
      `config.lists.defaultPageCount (${lists.defaultPageCount}) is above config.limits.maxPageCount.value (${max.value}): every list without PageCount would be refused`,
    );
  }
}

export function validateConfig(config: SimulatorConfig): SimulatorConfig {
  for (const [path, check] of Object.entries(RULES)) {
    const value = path.split('.').reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), config);
    const why = check(value);
    if (why) throw new ConfigError(`config.${path} must be ${why}, got ${JSON.stringify(value) ?? 'nothing'}`);
  }
  const ids = config.bots.map((b) => b.id);
  if (new Set(ids).size !== ids.length) throw new ConfigError(`config.bots has duplicate ids: ${ids.join(', ')}`);
  checkCombinations(config);
  return config;
}

/** DEFAULT_CONFIG with each patch merged in order, then checked. */
export function resolveConfig(...patches: unknown[]): SimulatorConfig {
  return validateConfig(patches.reduce<SimulatorConfig>((acc, patch) => mergeConfig(acc, patch), DEFAULT_CONFIG));
}
