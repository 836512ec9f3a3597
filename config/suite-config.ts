// The suite's one configuration: the variables of .env.example, parsed the same way for the contract suite, the
// probes, the k6 scripts and the scripts. Pure (no Buffer, no URL class: k6 runs it too). Every problem is a
// ConfigError whose message is one line naming the variable and how to fix it.
//
// One policy for defaults: only settings of the suite itself have defaults (ports, budgets, pacing). What names the
// target (credentials, bots) has none: when the suite starts its own simulator, the launcher puts the simulator's
// values into the environment; against a real target they must be given. A command requires those its --help names
// and reads no other (TARGET_VARIABLES): nothing it does not use can stop it.
import { namesIn, type EnvironmentRows, type NamedIn } from './environment.ts';
import { checkTemplate, TemplateError, type Placeholder } from '../http/body-template.ts';
import { DEFAULT_THROTTLE, type ThrottleSettings } from '../http/throttle.ts';
import { DEFAULT_HEALTH, type HealthSettings } from '../http/health.ts';
import { ISO_DATE_TIME } from '../lib/shape.ts';

export type Env = Record<string, string | undefined>;

export interface SuiteConfig {
  /** Base URL of the target without /api; undefined: the embedded simulator. */
  targetBaseUrl: string | undefined;
  /** What the suite talks to, without /api. */
  baseUrl: string;
  usesSimulator: boolean;
  /** Vendor profile of the embedded simulator (simulator/profiles/NAME.json); undefined for its defaults. */
  simulatorProfile: string | undefined;
  simulatorPort: number;
  login: string;
  password: string;
  botId: number;
  gotoBotId: number;
  customBlockBotId: number;
  fileId: number | undefined;
  /** A bot whose instance is blocked (403, spec §5.3); optional. */
  blockedBotId: number | undefined;
  /** JSON templates of the send and command bodies (spec §4.2: not shown); undefined: discovered per run. */
  sendBody: string | undefined;
  commandBody: string | undefined;
  /** Where the custom block's call is received (spec §6.1). */
  callbackHost: string;
  callbackPort: number;
  callbackPublicUrl: string;
  /** Name of the field (or header) that carries the integration token, when the call has several candidates. */
  callbackTokenField: string | undefined;
  callbackTimeoutSeconds: number;
  /** Requests per second of the whole run (all workers); undefined: unpaced. */
  maxRps: number | undefined;
  /** Playwright workers; undefined: one per core but one, two at least (playwright.config.ts). */
  workers: number | undefined;
  throttle: ThrottleSettings;
  /** Resends of transient failures and the seconds of failures that make an outage (http/health.ts). */
  health: HealthSettings;
  baseline: string | undefined;
  strictBaseline: boolean;
  /** A send or command body shape the run cannot establish fails the run instead of skipping its tests. */
  requireShapes: boolean;
  /** Tickets and failures.json quote end users' IPs and cities as the answers had them (report/personal-data.ts). */
  keepPersonalData: boolean;
  /** A baseline whose learned document the run is held to as well (--contract-from). */
  contractFrom: string | undefined;
  /**
   * CONTRACT_FAILURES=record (the mutation run): a test that recorded contract failures is expected to fail, so a
   * drifted run does not restart a Playwright worker per failed test. The test still stops where it would.
   */
  recordFailures: boolean;
  probeBudget: number;
  /**
   * The seed of the run's generated inputs (SEED; fixtures/generated-inputs.ts): the same seed sends the same inputs.
   * Undefined: the main command (or global setup) draws one and prints it on the run's first line.
   */
  seed: number | undefined;
  /** Generated cases per operation, half valid and half invalid (GENERATED_CASES, default DEFAULT_GENERATED_CASES): more for a nightly run. */
  generatedCases: number;
  /** Seconds a test reads a list again, with backoff, for a write to show (lists may trail the store). */
  listSettleSeconds: number;
  /** An integration token of a running custom block, for the k6 scripts (VERTEX_TOKEN). */
  vertexToken: string | undefined;
  /** k6 findings about the same target join a contract run's fingerprint when younger than this (hours). */
  loadFindingsMaxAgeHours: number;
  /**
   * The dialogs observations of existing data are read from: created in [from, to] (ISO dates or date-times).
   * Undefined: from 90 days to 1 day before the start of the run's UTC day, a window live traffic no longer moves.
   */
  sampleCreatedFrom: string | undefined;
  sampleCreatedTo: string | undefined;
  /** A team's module of checks of its own (CHECKS_MODULE): a path, relative to the project, joining the registry. */
  checksModule: string | undefined;
  /** The checks a run makes, by name or family (CHECKS, `--checks`); undefined: all. */
  checks: string[] | undefined;
  /** The checks a run leaves out (EXCLUDE_CHECKS, `--exclude-checks`), reported as not run. */
  excludeChecks: string[] | undefined;
}

/**
 * What names the target and has no default, with the field it fills. A command requires those its help's environment
 * rows name (config/environment.ts) and never reads the others: `npm run respect`, whose workflow has no custom
 * block, is not stopped for want of CUSTOM_BLOCK_BOT_ID.
 */
const TARGET_VARIABLES = {
  API_LOGIN: 'login',
  API_PASSWORD: 'password',
  BOT_ID: 'botId',
  GOTO_BOT_ID: 'gotoBotId',
  CUSTOM_BLOCK_BOT_ID: 'customBlockBotId',
} as const satisfies Record<string, keyof SuiteConfig>;

export type TargetVariable = keyof typeof TARGET_VARIABLES;

/** The configuration of a command that requires the target variables N: the fields of the others are not there. */
export type ConfigOf<N extends TargetVariable> = Omit<SuiteConfig, (typeof TARGET_VARIABLES)[Exclude<TargetVariable, N>]>;

/** The configuration of a command whose help lists the environment rows E: what it uses is what its help names. */
export type CommandConfig<E extends EnvironmentRows> = ConfigOf<Extract<NamedIn<E>, TargetVariable>>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const FIX = 'set it in .env or the environment (see .env.example)';

function text(env: Env, name: string, fallback?: string): string {
  const value = env[name]?.trim() || fallback;
  if (!value) throw new ConfigError(`${name} is missing: ${FIX}`);
  return value;
}

const optional = (env: Env, name: string): string | undefined => env[name]?.trim() || undefined;

const invalid = (name: string, raw: string, what: string) => new ConfigError(`${name}=${raw} is not valid: it should hold ${what}; ${FIX}`);

function integer(env: Env, name: string, what: string, fallback?: string): number {
  const raw = text(env, name, fallback);
  if (!/^-?\d+$/.test(raw)) throw invalid(name, raw, what);
  return Number(raw);
}

function atLeast(env: Env, name: string, what: string, min: number, fallback?: string): number {
  const value = integer(env, name, what, fallback);
  if (value < min) throw invalid(name, String(value), what);
  return value;
}

function optionalInteger(env: Env, name: string, what: string, min: number): number | undefined {
  return optional(env, name) === undefined ? undefined : atLeast(env, name, what, min);
}

function positiveNumber(env: Env, name: string, what: string): number | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw) || !(Number(raw) > 0)) throw invalid(name, raw, what);
  return Number(raw);
}

function port(env: Env, name: string, fallback: string): number {
  const value = integer(env, name, 'a TCP port number (1-65535)', fallback);
  if (value < 1 || value > 65535) throw invalid(name, String(value), 'a TCP port number (1-65535)');
  return value;
}

/** An http(s) URL without credentials, trailing slashes removed; checked without the URL class (k6 has none). */
function httpUrl(env: Env, name: string, what: string, fallback?: string): string | undefined {
  const raw = optional(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  const m = /^(https?):\/\/([^/?#\s]+)([^\s]*)$/i.exec(raw);
  // The message never echoes a URL that may carry credentials.
  if (m && m[2]!.includes('@')) throw new ConfigError(`${name} must not carry credentials in the URL: use API_LOGIN and API_PASSWORD`);
  if (!m || !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(m[2]!)) throw invalid(name, raw, what);
  return raw.replace(/\/+$/, '');
}

function template(env: Env, name: string, required: Placeholder, example: string): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  try {
    checkTemplate(raw, [required]);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    throw new ConfigError(`${name} ${err.message}: give a JSON template such as ${example}`);
  }
  return raw;
}

function isoTime(env: Env, name: string): string | undefined {
  const raw = optional(env, name);
  if (raw !== undefined && (!ISO_DATE_TIME.test(raw) || Number.isNaN(Date.parse(raw)))) {
    throw invalid(name, raw, 'an ISO 8601 date or date-time, e.g. 2026-10-01 or 2026-10-01T00:00:00Z');
  }
  return raw;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[]): T | undefined {
  const raw = optional(env, name);
  if (raw !== undefined && !values.includes(raw as T)) throw invalid(name, raw, `one of ${values.join(', ')} (or nothing)`);
  return raw as T | undefined;
}

const throttleSettings = (env: Env): ThrottleSettings => ({
  maxRetries: atLeast(env, 'THROTTLE_MAX_RETRIES', 'a number of retries per throttled request (0 or more)', 0, String(DEFAULT_THROTTLE.maxRetries)),
  maxWaitSeconds: atLeast(env, 'THROTTLE_MAX_WAIT_S', 'the seconds a run may wait on 429/503 (0 or more)', 0, String(DEFAULT_THROTTLE.maxWaitSeconds)),
});

/** A comma-separated list of check names (checks/check.ts): whether each names a check is the registry's to say. */
function names(env: Env, name: string): string[] | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((n) => n.trim());
  if (list.some((n) => !/^[a-z][a-z0-9_.]*$/.test(n))) throw invalid(name, raw, 'check names separated by commas (npm run contract -- --list-checks)');
  return list;
}

/** The largest seed: fast-check's seeds are 32-bit integers, and a seed is written and pasted as a plain number. */
export const MAX_SEED = 2 ** 31 - 1;

function seedOf(env: Env): number {
  const value = integer(env, 'SEED', `a whole number from 0 to ${MAX_SEED} (the seed a run printed)`);
  if (value < 0 || value > MAX_SEED) throw invalid('SEED', String(value), `a whole number from 0 to ${MAX_SEED} (the seed a run printed)`);
  return value;
}

/**
 * Requests the probes and the generated cases may send per run (PROBE_BUDGET). Each probe declares the most it sends
 * before it sends it, a generated case just before it is sent (its shrinking too, one case at a time): what a run
 * sends is counted against this, and `npm run contract` prints both on its last lines.
 */
export const DEFAULT_PROBE_BUDGET = 1000;

/**
 * Generated cases per operation by default (GENERATED_CASES): every class of every input has a case of its own at any
 * count (fixtures/input-space.ts casePlan), so more buys more draws within each class, at a cost in requests. The
 * default keeps the generated inputs within a quarter of the main command's time against the simulator (issue 47;
 * `npm run bench:contract` prints the growth); a nightly run raises it.
 */
export const DEFAULT_GENERATED_CASES = 12;

const truthy = (value: string | undefined) => ['1', 'true', 'yes'].includes((value ?? '').trim().toLowerCase());

/**
 * The configuration of a command from its environment rows (the table its --help renders): of the target variables,
 * those the rows name are required, the others never read, and the result's type has the fields of the named ones only.
 */
export function parseSuiteConfig<E extends EnvironmentRows>(env: Env, environment: E): CommandConfig<E> {
  const named = new Set(namesIn(environment));
  const ifNamed = <T>(name: TargetVariable, parse: () => T): T | undefined => (named.has(name) ? parse() : undefined);
  const targetBaseUrl = httpUrl(env, 'API_BASE_URL', 'the service base URL without /api, e.g. https://staging.example.com');
  if (targetBaseUrl?.endsWith('/api')) {
    throw new ConfigError(`API_BASE_URL=${targetBaseUrl} ends with /api: give the base URL only, the suite appends /api`);
  }
  const simulatorPort = port(env, 'SIMULATOR_PORT', '4010');
  const callbackPort = port(env, 'CALLBACK_PORT', '4011');
  const target: { [K in (typeof TARGET_VARIABLES)[TargetVariable]]: SuiteConfig[K] | undefined } = {
    login: ifNamed('API_LOGIN', () => text(env, 'API_LOGIN')),
    password: ifNamed('API_PASSWORD', () => text(env, 'API_PASSWORD')),
    botId: ifNamed('BOT_ID', () => atLeast(env, 'BOT_ID', 'the BotID the suite creates dialogs on (a positive integer)', 1)),
    gotoBotId: ifNamed('GOTO_BOT_ID', () => atLeast(env, 'GOTO_BOT_ID', 'the BotID of the command goto target (a positive integer)', 1)),
    customBlockBotId: ifNamed('CUSTOM_BLOCK_BOT_ID', () =>
      atLeast(env, 'CUSTOM_BLOCK_BOT_ID', 'the BotID whose scenario reaches a custom block (a positive integer)', 1),
    ),
  };
  if (target.gotoBotId !== undefined && target.gotoBotId === target.botId)
    throw new ConfigError(`GOTO_BOT_ID=${target.gotoBotId} equals BOT_ID: the goto target must be another bot`);
  const callbackHost = text(env, 'CALLBACK_HOST', '127.0.0.1');
  if (!/^(\[?[0-9a-f:.]+\]?|[a-z0-9.-]+)$/i.test(callbackHost))
    throw invalid('CALLBACK_HOST', callbackHost, 'a host name or IP address to listen on (0.0.0.0 for every interface)');
  const settings: ConfigOf<never> = {
    targetBaseUrl,
    baseUrl: targetBaseUrl ?? `http://127.0.0.1:${simulatorPort}`,
    usesSimulator: targetBaseUrl === undefined,
    simulatorProfile: optional(env, 'SIMULATOR_PROFILE'),
    simulatorPort,
    fileId: optional(env, 'FILE_ID') === undefined ? undefined : atLeast(env, 'FILE_ID', 'a positive integer file id known to exist (or leave it empty)', 1),
    blockedBotId:
      optional(env, 'BLOCKED_BOT_ID') === undefined
        ? undefined
        : atLeast(env, 'BLOCKED_BOT_ID', 'the BotID of a blocked instance (a positive integer, or leave it empty)', 1),
    sendBody: template(env, 'SEND_BODY', 'text', '{"message":"{{text}}"}'),
    commandBody: template(env, 'COMMAND_BODY', 'botId', '{"command":"goto","bot":{{botId}}}'),
    callbackHost,
    callbackPort,
    callbackPublicUrl: httpUrl(
      env,
      'CALLBACK_PUBLIC_URL',
      'the URL at which the service reaches the callback listener',
      `http://127.0.0.1:${callbackPort}/callback`,
    )!,
    callbackTokenField: optional(env, 'CALLBACK_TOKEN_FIELD'),
    callbackTimeoutSeconds: atLeast(env, 'CALLBACK_TIMEOUT_S', 'a whole number of seconds (1 or more)', 1, '10'),
    maxRps: positiveNumber(env, 'MAX_RPS', 'requests per second of the whole run, a positive number (or leave it empty)'),
    workers: optionalInteger(env, 'WORKERS', 'a number of Playwright workers (1 or more, or leave it empty)', 1),
    throttle: throttleSettings(env),
    health: {
      maxResends: atLeast(env, 'TRANSIENT_RESENDS', 'a number of resends of a read lost to the network (0 or more)', 0, String(DEFAULT_HEALTH.maxResends)),
      outageSeconds: atLeast(
        env,
        'OUTAGE_S',
        'the seconds of failures, with no answer to judge, after which the target is down (1 or more)',
        1,
        String(DEFAULT_HEALTH.outageSeconds),
      ),
    },
    baseline: optional(env, 'BASELINE'),
    strictBaseline: truthy(env.STRICT_BASELINE),
    requireShapes: truthy(env.REQUIRE_SHAPES),
    keepPersonalData: truthy(env.KEEP_PERSONAL_DATA),
    contractFrom: optional(env, 'CONTRACT_FROM'),
    recordFailures: oneOf(env, 'CONTRACT_FAILURES', ['record']) === 'record',
    probeBudget: atLeast(env, 'PROBE_BUDGET', 'a positive number of requests', 1, String(DEFAULT_PROBE_BUDGET)),
    seed: optional(env, 'SEED') === undefined ? undefined : seedOf(env),
    generatedCases: atLeast(env, 'GENERATED_CASES', 'a number of generated cases per operation (1 or more)', 1, String(DEFAULT_GENERATED_CASES)),
    listSettleSeconds: atLeast(env, 'LIST_SETTLE_S', 'the seconds a test waits for a write to show in a list (0 or more)', 0, '10'),
    vertexToken: optional(env, 'VERTEX_TOKEN'),
    loadFindingsMaxAgeHours: atLeast(env, 'LOAD_FINDINGS_MAX_AGE_H', 'a whole number of hours (0 or more)', 0, '24'),
    sampleCreatedFrom: isoTime(env, 'SAMPLE_CREATED_FROM'),
    sampleCreatedTo: isoTime(env, 'SAMPLE_CREATED_TO'),
    checksModule: optional(env, 'CHECKS_MODULE'),
    checks: names(env, 'CHECKS'),
    excludeChecks: names(env, 'EXCLUDE_CHECKS'),
  };
  // A variable the command does not name leaves no field, as its type has none (which TypeScript cannot follow
  // through the generic rows: hence the cast).
  return { ...settings, ...Object.fromEntries(Object.entries(target).filter(([, value]) => value !== undefined)) } as unknown as CommandConfig<E>;
}

/**
 * What a k6 script reads: the target and credentials (required), the bots only as given (a script that creates
 * dialogs asks for BOT_ID with `needBotId`; none of them uses GOTO_BOT_ID or CUSTOM_BLOCK_BOT_ID), the send body
 * template, the throttle waits and a custom-block token. Nothing a script does not use can stop it.
 */
export interface LoadConfig extends Pick<SuiteConfig, 'login' | 'password' | 'sendBody' | 'throttle' | 'vertexToken'> {
  baseUrl: string;
  botId: number | undefined;
}

export function parseLoadConfig(env: Env): LoadConfig {
  const baseUrl = httpUrl(env, 'API_BASE_URL', 'the service base URL without /api, e.g. https://staging.example.com');
  // The suite's embedded simulator is started by the runner, never by k6: a bundle alone needs a target.
  if (baseUrl === undefined) {
    throw new ConfigError('API_BASE_URL is missing: run the k6 scripts through `npm run load`, which starts a simulator, or set API_BASE_URL to the target');
  }
  if (baseUrl.endsWith('/api')) throw new ConfigError(`API_BASE_URL=${baseUrl} ends with /api: give the base URL only, the suite appends /api`);
  return {
    baseUrl,
    login: text(env, 'API_LOGIN'),
    password: text(env, 'API_PASSWORD'),
    botId: optional(env, 'BOT_ID') === undefined ? undefined : atLeast(env, 'BOT_ID', 'the BotID the scripts create dialogs on (a positive integer)', 1),
    sendBody: template(env, 'SEND_BODY', 'text', '{"message":"{{text}}"}'),
    throttle: throttleSettings(env),
    vertexToken: optional(env, 'VERTEX_TOKEN'),
  };
}

/** BOT_ID, for a script that creates dialogs: missing, it stops the script with the one line every setting has. */
export function needBotId(config: Pick<LoadConfig, 'botId'>): number {
  if (config.botId === undefined) throw new ConfigError(`BOT_ID is missing: ${FIX}`);
  return config.botId;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** UTF-8 bytes of a string, without TextEncoder (k6 has none). */
function utf8(value: string): number[] {
  const bytes: number[] = [];
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return bytes;
}

function base64(bytes: number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += BASE64[(n >> 18) & 63]! + BASE64[(n >> 12) & 63]! + (b === undefined ? '=' : BASE64[(n >> 6) & 63]!) + (c === undefined ? '=' : BASE64[n & 63]!);
  }
  return out;
}

/** The Authorization header of HTTP Basic (spec §5.1). */
export function basicAuthorization(login: string, password: string): string {
  return `Basic ${base64(utf8(`${login}:${password}`))}`;
}

/** Every configured value that must never appear in a report, trace or log, with the name messages give it. */
export function namedSecretsOf(config: Pick<SuiteConfig, 'login' | 'password' | 'vertexToken'>): Array<{ name: string; value: string }> {
  const basic = basicAuthorization(config.login, config.password).slice('Basic '.length);
  const named = [
    { name: 'API_PASSWORD', value: config.password },
    { name: 'the Basic credentials of API_LOGIN and API_PASSWORD', value: basic },
    { name: 'VERTEX_TOKEN', value: config.vertexToken },
  ];
  return named.filter((s): s is { name: string; value: string } => s.value !== undefined && s.value !== '');
}

/** The values of namedSecretsOf long enough to redact (a shorter one would blank ordinary text). */
export function secretsOf(config: Pick<SuiteConfig, 'login' | 'password' | 'vertexToken'>): string[] {
  return namedSecretsOf(config)
    .map((s) => s.value)
    .filter((s) => s.length >= 4);
}
