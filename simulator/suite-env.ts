// What a user's .env says about a target, for a simulator playing one: its credentials and which of its bots to
// use. Launchers (playwright.config.ts, scripts/, the load runner) put these into the environment when the suite
// runs against a simulator, so the suite itself never knows the simulator's choices.
import type { SimulatorConfig } from './config.ts';
import { ConfigError, type SuiteConfig } from '../config/suite-config.ts';
import { profileConfig, UnknownProfileError } from './profiles.ts';

export function suiteEnvFor(config: SimulatorConfig): Record<string, string> {
  const ordinary = config.bots.filter((b) => !b.blocked && b.customBlockUrl === null && b.weight > 0);
  const custom = config.bots.find((b) => !b.blocked && b.customBlockUrl !== null);
  const blocked = config.bots.find((b) => b.blocked);
  if (ordinary.length < 2 || !custom) throw new Error('the simulator config needs two ordinary bots with seeded dialogs and a custom-block bot');
  return {
    API_LOGIN: config.auth.login,
    API_PASSWORD: config.auth.password,
    BOT_ID: String(ordinary[0]!.id),
    GOTO_BOT_ID: String(ordinary[1]!.id),
    CUSTOM_BLOCK_BOT_ID: String(custom.id),
    ...(blocked ? { BLOCKED_BOT_ID: String(blocked.id) } : {}),
  };
}

/**
 * With no target configured (API_BASE_URL empty), fills in the values of the simulator the suite will start
 * (SIMULATOR_PROFILE, default "default") wherever the environment leaves them unset. Returns the same object.
 * A profile together with a target is a ConfigError: the profile would be silently ignored.
 */
export function withSimulatorDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const profile = env.SIMULATOR_PROFILE?.trim() || undefined;
  if (env.API_BASE_URL?.trim()) {
    if (profile) {
      throw new ConfigError(
        `SIMULATOR_PROFILE=${profile} is set together with API_BASE_URL: a profile picks the embedded simulator, which runs only without a target; unset one of them`,
      );
    }
    return env;
  }
  let config: SimulatorConfig;
  try {
    config = profileConfig(profile ?? 'default');
  } catch (err) {
    if (!(err instanceof UnknownProfileError)) throw err;
    throw new ConfigError(`SIMULATOR_PROFILE=${profile} is not valid: ${err.message}`);
  }
  for (const [name, value] of Object.entries(suiteEnvFor(config))) {
    if (!env[name]?.trim()) env[name] = value;
  }
  return env;
}

/** How the simulator's first line begins, printed once it listens: what its launchers wait for. */
export const LISTENING_LINE = 'simulator listening on ';

/**
 * The node arguments that start the embedded simulator of a run without a target, from the project root: Playwright's
 * webServer runs them, or the main command beside Playwright (contract/core/env.ts SIMULATOR_STARTED_ENV).
 */
export function embeddedSimulatorArgs(config: Pick<SuiteConfig, 'simulatorPort' | 'callbackPublicUrl' | 'simulatorProfile'>): string[] {
  return [
    '--import',
    'tsx',
    'simulator/main.ts',
    '--port',
    String(config.simulatorPort),
    '--callback-url',
    config.callbackPublicUrl,
    ...(config.simulatorProfile ? ['--profile', config.simulatorProfile] : []),
  ];
}

/** A JSON template with `value` at a dotted path ("message.text" → {"message":{"text":…}}). */
function nested(path: string, value: unknown, into: Record<string, unknown> = {}): Record<string, unknown> {
  const keys = path.split('.');
  let node = into;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys[keys.length - 1]!] = value;
  return into;
}

/**
 * The send and command body templates of a simulator, as its vendor would document them for SEND_BODY and
 * COMMAND_BODY: what a user configures when discovery cannot find a shape.
 */
export function bodyTemplatesOf(config: SimulatorConfig): { SEND_BODY: string; COMMAND_BODY: string } {
  const TEXT = '\u0000text';
  const BOT = '\u0000bot';
  const { commandField, botField, gotoValue, botType } = config.command;
  const placeholders = (json: string) =>
    json.replace(JSON.stringify(TEXT), '"{{text}}"').replace(JSON.stringify(BOT), botType === 'string' ? '"{{botId}}"' : '{{botId}}');
  return {
    SEND_BODY: placeholders(JSON.stringify(nested(config.send.textFields[0]!, TEXT))),
    COMMAND_BODY: placeholders(JSON.stringify(nested(botField, BOT, nested(commandField, gotoValue)))),
  };
}
