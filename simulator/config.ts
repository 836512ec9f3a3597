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

/** Token bucket per credential (Basic login, vertex token): `burst` requests at once, refilled at `perSecond`. */
export interface RateLimitConfig {
  perSecond: number;
  burst: number;
  status?: number;
  retryAfterSeconds?: number;
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
  };
  create: {
    /** GET /v2/dialog/{BotID}/create: body not shown (spec §4.2). */
    v2Get: SuccessReply;
    /** POST /v2/dialog/{BotID}/create with response false: not shown (spec §4.2). */
    startedWithoutResponse: SuccessReply;
    /** Value of `response` when neither the body nor the query gives it. */
    responseDefault: boolean;
    /** How passed variables show up in the record: as data items, or not at all (null). */
    variableItem: { question: string; type: string } | null;
  };
  send: {
    /** Body fields accepted as the message text, first present wins (spec §4.2: not shown). */
    textFields: string[];
    /** States in which send is accepted; others answer `rejectStatus`. */
    allowedStatuses: StatusKey[];
    rejectStatus: number;
    /** Also record the operator message as a data item (null: only `updated` moves). */
    dataItem: { question: string; type: string } | null;
  };
  command: {
    commandField: string;
    botField: string;
    gotoValue: string;
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
  callback: {
    timeoutMs: number;
    /** Field names of the JSON body POSTed to the block URL (spec §6.1: not shown); null omits a field. */
    fields: { token: string | null; dialogId: string | null; dialogUuid: string | null; botId: string | null };
  };
  /** Error body shape (spec §7: not shown): RFC 7807 problem+json, {"message": ...} JSON, or plain text. */
  errors: { format: 'problem' | 'json' | 'text' };
  limits: {
    maxPageCount: LimitConfig | null;
    maxTextLength: LimitConfig | null;
    maxVariablesBytes: LimitConfig | null;
    rate: RateLimitConfig | null;
    /** Request bodies above this answer 413. */
    maxBodyBytes: number;
  };
}

export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> | null }
    : T;

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
  lists: { defaultPageNumber: 1, defaultPageCount: 40, order: 'newest-first' },
  create: {
    v2Get: { status: 200, body: 'ids-v2' },
    startedWithoutResponse: { status: 204, body: 'empty' },
    responseDefault: false,
    variableItem: { question: '', type: 'Variable' },
  },
  send: { textFields: ['text'], allowedStatuses: ['operator'], rejectStatus: 403, dataItem: null },
  command: { commandField: 'command', botField: 'bot_id', gotoValue: 'goto', success: { status: 204, body: 'empty' } },
  files: { v2: 'same-as-v1', linkBase: null },
  vertex: { requireText: true },
  callback: {
    timeoutMs: 10_000,
    fields: { token: 'token', dialogId: 'dialog_id', dialogUuid: 'dialog_uuid', botId: 'bot_id' },
  },
  errors: { format: 'problem' },
  limits: { maxPageCount: null, maxTextLength: null, maxVariablesBytes: null, rate: null, maxBodyBytes: 1024 * 1024 },
};

/** A configuration that cannot be used: the message names the key and what it must be. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

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
const int = (min: number): Check => (v) => (Number.isSafeInteger(v) && (v as number) >= min ? undefined : `an integer >= ${min}`);
const num = (min: number, max = Infinity): Check => (v) =>
  typeof v === 'number' && v >= min && v <= max ? undefined : `a number in [${min}, ${max}]`;
const str: Check = (v) => (typeof v === 'string' ? undefined : 'a string');
const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'true or false');
const oneOf = (...values: string[]): Check => (v) => (values.includes(v as string) ? undefined : `one of ${values.join(', ')}`);
const nullable = (check: Check): Check => (v) => (v === null ? undefined : check(v));
const status: Check = (v) => (Number.isSafeInteger(v) && (v as number) >= 100 && (v as number) <= 599 ? undefined : 'an HTTP status');
const list = (check: Check, min = 0): Check => (v) => {
  if (!Array.isArray(v) || v.length < min) return `a list of at least ${min} item(s)`;
  const bad = v.map(check).findIndex(Boolean);
  return bad < 0 ? undefined : `a list whose item ${bad} is ${check(v[bad])}`;
};
const object = (shape: Record<string, Check>, optional: string[] = []): Check => (v) => {
  if (!isPlainObject(v)) return `an object with ${Object.keys(shape).join(', ')}`;
  for (const [key, check] of Object.entries(shape)) {
    if (!(key in v) && optional.includes(key)) continue;
    const why = check(v[key]);
    if (why) return `an object whose ${key} is ${why}`;
  }
  return undefined;
};
const successReply = object({ status, body: oneOf('empty', 'empty-object', 'ids-v1', 'ids-v2') });
const limit = nullable(object({ value: num(0), status, body: () => undefined }, ['status', 'body']));

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
  'create.v2Get': successReply,
  'create.startedWithoutResponse': successReply,
  'create.responseDefault': bool,
  'create.variableItem': nullable(object({ question: str, type: str })),
  'send.textFields': list(str, 1),
  'send.allowedStatuses': list(oneOf(...STATUS_KEYS)),
  'send.rejectStatus': status,
  'send.dataItem': nullable(object({ question: str, type: str })),
  'command.commandField': str,
  'command.botField': str,
  'command.gotoValue': str,
  'command.success': successReply,
  'files.v2': oneOf('same-as-v1', 'not-found'),
  'files.linkBase': nullable(str),
  'vertex.requireText': bool,
  'callback.timeoutMs': int(1),
  'callback.fields.token': nullable(str),
  'callback.fields.dialogId': nullable(str),
  'callback.fields.dialogUuid': nullable(str),
  'callback.fields.botId': nullable(str),
  'errors.format': oneOf('problem', 'json', 'text'),
  'limits.maxPageCount': limit,
  'limits.maxTextLength': limit,
  'limits.maxVariablesBytes': limit,
  'limits.rate': nullable(object({ perSecond: num(0), burst: num(1), status, retryAfterSeconds: int(0) }, ['status', 'retryAfterSeconds'])),
  'limits.maxBodyBytes': int(1),
};

export function validateConfig(config: SimulatorConfig): SimulatorConfig {
  for (const [path, check] of Object.entries(RULES)) {
    const value = path.split('.').reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), config);
    const why = check(value);
    if (why) throw new ConfigError(`config.${path} must be ${why}, got ${JSON.stringify(value) ?? 'nothing'}`);
  }
  const ids = config.bots.map((b) => b.id);
  if (new Set(ids).size !== ids.length) throw new ConfigError(`config.bots has duplicate ids: ${ids.join(', ')}`);
  return config;
}

/** DEFAULT_CONFIG with each patch merged in order, then checked. */
export function resolveConfig(...patches: unknown[]): SimulatorConfig {
  return validateConfig(patches.reduce<SimulatorConfig>((acc, patch) => mergeConfig(acc, patch), DEFAULT_CONFIG));
}
