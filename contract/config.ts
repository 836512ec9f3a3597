// The suite's one typed view of its configuration (.env and the environment). Parsing is pure: it takes an env
// object and either returns a config or throws a ConfigError whose message is one line naming the variable.

export interface SuiteConfig {
  /** Base URL of the target without /api; undefined = the embedded simulator. */
  targetBaseUrl: string | undefined;
  /** What the suite actually talks to, without /api. */
  baseUrl: string;
  usesSimulator: boolean;
  login: string;
  password: string;
  botId: number;
  gotoBotId: number;
  customBlockBotId: number;
  fileId: number | undefined;
  /** A bot whose instance is blocked (403, spec §5.3); optional, only the simulator has one by default. */
  blockedBotId: number | undefined;
  callbackPort: number;
  callbackPublicUrl: string;
  simulatorPort: number;
  baseline: string | undefined;
  strictBaseline: boolean;
  /** Requests the probes may send per run. */
  probeBudget: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const DEFAULTS = {
  API_LOGIN: 'qa-contract',
  API_PASSWORD: 'sim-secret-7f3a9c',
  BOT_ID: '101',
  GOTO_BOT_ID: '202',
  CUSTOM_BLOCK_BOT_ID: '303',
  CALLBACK_PORT: '4011',
  BLOCKED_BOT_ID: '909',
  SIMULATOR_PORT: '4010',
} as const;

const fix = 'set it in .env or the environment (see .env.example)';

function text(env: Env, name: string, fallback?: string): string {
  const value = env[name]?.trim() || fallback;
  if (!value) throw new ConfigError(`${name} is missing: ${fix}`);
  return value;
}

function integer(env: Env, name: string, what: string, fallback?: string): number {
  const raw = text(env, name, fallback);
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name}=${raw} is not valid: it should hold ${what}; ${fix}`);
  return Number(raw);
}

function positive(env: Env, name: string, what: string, fallback: string): number {
  const value = integer(env, name, what, fallback);
  if (value < 1) throw new ConfigError(`${name}=${value} is not valid: it should hold ${what}; ${fix}`);
  return value;
}

function port(env: Env, name: string, fallback: string): number {
  const value = integer(env, name, 'a TCP port number (1-65535)', fallback);
  if (value < 1 || value > 65535) throw new ConfigError(`${name}=${value} is not valid: it should hold a TCP port number (1-65535); ${fix}`);
  return value;
}

function httpUrl(env: Env, name: string, what: string, fallback?: string): string | undefined {
  const raw = env[name]?.trim() || fallback;
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name}=${raw} is not valid: it should hold ${what}; ${fix}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name}=${raw} is not valid: it should hold ${what}; ${fix}`);
  }
  if (url.username || url.password) {
    throw new ConfigError(`${name} must not carry credentials in the URL: use API_LOGIN and API_PASSWORD`);
  }
  return raw.replace(/\/+$/, '');
}

/** Simulator defaults apply only when no target is configured: against a real target every value is explicit. */
export function parseConfig(env: Env): SuiteConfig {
  const targetBaseUrl = httpUrl(env, 'API_BASE_URL', 'the service base URL without /api, e.g. https://staging.example.com');
  if (targetBaseUrl?.endsWith('/api')) {
    throw new ConfigError(`API_BASE_URL=${targetBaseUrl} ends with /api: give the base URL only, the suite appends /api`);
  }
  const usesSimulator = targetBaseUrl === undefined;
  const d = (name: keyof typeof DEFAULTS) => (usesSimulator || name === 'CALLBACK_PORT' || name === 'SIMULATOR_PORT' ? DEFAULTS[name] : undefined);
  const simulatorPort = port(env, 'SIMULATOR_PORT', DEFAULTS.SIMULATOR_PORT);
  const callbackPort = port(env, 'CALLBACK_PORT', d('CALLBACK_PORT')!);
  const botId = integer(env, 'BOT_ID', 'the integer BotID the suite creates dialogs on', d('BOT_ID'));
  const gotoBotId = integer(env, 'GOTO_BOT_ID', 'the integer BotID of the command goto target', d('GOTO_BOT_ID'));
  if (gotoBotId === botId) throw new ConfigError(`GOTO_BOT_ID=${gotoBotId} equals BOT_ID: the goto target must be another bot`);
  const fileIdRaw = env.FILE_ID?.trim();
  return {
    targetBaseUrl,
    baseUrl: targetBaseUrl ?? `http://127.0.0.1:${simulatorPort}`,
    usesSimulator,
    login: text(env, 'API_LOGIN', d('API_LOGIN')),
    password: text(env, 'API_PASSWORD', d('API_PASSWORD')),
    botId,
    gotoBotId,
    customBlockBotId: integer(env, 'CUSTOM_BLOCK_BOT_ID', 'the integer BotID whose scenario reaches a custom block', d('CUSTOM_BLOCK_BOT_ID')),
    fileId: fileIdRaw ? integer(env, 'FILE_ID', 'an integer file id known to exist (or leave it empty)') : undefined,
    blockedBotId: env.BLOCKED_BOT_ID?.trim() || usesSimulator ? integer(env, 'BLOCKED_BOT_ID', 'the integer BotID of a blocked instance (or leave it empty)', d('BLOCKED_BOT_ID')) : undefined,
    callbackPort,
    callbackPublicUrl: httpUrl(env, 'CALLBACK_PUBLIC_URL', 'the URL at which the service reaches the callback listener', `http://127.0.0.1:${callbackPort}/callback`)!,
    simulatorPort,
    baseline: env.BASELINE?.trim() || undefined,
    strictBaseline: ['1', 'true', 'yes'].includes((env.STRICT_BASELINE ?? '').trim().toLowerCase()),
    probeBudget: positive(env, 'PROBE_BUDGET', 'a positive number of requests', '250'),
  };
}

/** Every value that must never appear in a report, trace or log. */
export function secretsOf(config: SuiteConfig): string[] {
  const basic = Buffer.from(`${config.login}:${config.password}`).toString('base64');
  return [config.password, basic].filter((s) => s.length >= 4);
}
