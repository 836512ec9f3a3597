import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basicAuthorization, ConfigError, needBotId, parseLoadConfig, parseSuiteConfig, secretsOf, type Env } from './suite-config.ts';

/** The environment rows of a command that uses the whole target, as the suite does. */
const WHOLE = [
  ['API_BASE_URL', 'the target'],
  ['API_LOGIN, API_PASSWORD', 'credentials'],
  ['BOT_ID, GOTO_BOT_ID, CUSTOM_BLOCK_BOT_ID', 'bots'],
] as const;

const TARGET: Env = {
  API_BASE_URL: 'https://staging.example.com/',
  API_LOGIN: 'qa',
  API_PASSWORD: 'p4ss-word',
  BOT_ID: '7',
  GOTO_BOT_ID: '8',
  CUSTOM_BLOCK_BOT_ID: '9',
};

const refused = (env: Env, why: RegExp) =>
  assert.throws(
    () => parseSuiteConfig(env, WHOLE),
    (err: Error) => err instanceof ConfigError && why.test(err.message) && !err.message.includes('\n'),
  );

test('a target with its values parses, with the suite defaults filled in', () => {
  const config = parseSuiteConfig(TARGET, WHOLE);
  assert.equal(config.baseUrl, 'https://staging.example.com');
  assert.equal(config.usesSimulator, false);
  assert.deepEqual([config.botId, config.gotoBotId, config.customBlockBotId, config.blockedBotId, config.fileId], [7, 8, 9, undefined, undefined]);
  assert.deepEqual(
    [config.callbackHost, config.callbackPort, config.callbackPublicUrl, config.callbackTimeoutSeconds],
    ['127.0.0.1', 4011, 'http://127.0.0.1:4011/callback', 10],
  );
  assert.deepEqual([config.sendBody, config.commandBody, config.maxRps, config.workers], [undefined, undefined, undefined, undefined]);
  assert.deepEqual(config.throttle, { maxRetries: 6, maxWaitSeconds: 300 });
  assert.equal(config.probeBudget, 1000);
});

test('nothing that names the target has a default: a missing one is named, with the fix', () => {
  for (const name of ['API_LOGIN', 'API_PASSWORD', 'BOT_ID', 'GOTO_BOT_ID', 'CUSTOM_BLOCK_BOT_ID']) {
    refused({ ...TARGET, [name]: '' }, new RegExp(`^${name} is missing: set it in .env or the environment`));
  }
  // The embedded simulator too: its launcher supplies the values.
  const { API_BASE_URL: _, ...simulator } = TARGET;
  assert.equal(parseSuiteConfig(simulator, WHOLE).baseUrl, 'http://127.0.0.1:4010');
  refused({ ...simulator, BOT_ID: undefined }, /^BOT_ID is missing/);
});

test("a command requires the target's variables its help names, and reads no other", () => {
  // respect's rows: its workflow has no custom block.
  const respect = [
    ['API_BASE_URL', 'the target'],
    ['API_LOGIN, API_PASSWORD', 'credentials'],
    ['BOT_ID, GOTO_BOT_ID', 'bots'],
  ] as const;
  const config = parseSuiteConfig({ ...TARGET, CUSTOM_BLOCK_BOT_ID: undefined }, respect);
  assert.deepEqual([config.login, config.botId, config.gotoBotId], ['qa', 7, 8]);
  assert.equal('customBlockBotId' in config, false, 'no field for a variable the help does not name');
  // Not read at all: a value it could not parse stops nothing.
  assert.equal(parseSuiteConfig({ ...TARGET, CUSTOM_BLOCK_BOT_ID: 'the third one' }, respect).botId, 7);
  for (const name of ['API_LOGIN', 'API_PASSWORD', 'BOT_ID', 'GOTO_BOT_ID']) {
    assert.throws(() => parseSuiteConfig({ ...TARGET, [name]: '' }, respect), new RegExp(`^ConfigError: ${name} is missing`));
  }
  // Rows name several variables joined by ", "; a command that names none of the target's requires none.
  const none = parseSuiteConfig({ API_BASE_URL: TARGET.API_BASE_URL }, [['API_BASE_URL', 'the target']] as const);
  assert.equal(none.baseUrl, 'https://staging.example.com');
  assert.deepEqual(
    Object.keys(none).filter((key) => ['login', 'password', 'botId', 'gotoBotId', 'customBlockBotId'].includes(key)),
    [],
  );
  // The goto target differs from the bot only where both are named.
  assert.equal(parseSuiteConfig({ ...TARGET, GOTO_BOT_ID: '7' }, [['BOT_ID', 'the bot']] as const).botId, 7);
});

test('bad values are refused with one line naming the variable', () => {
  refused({ ...TARGET, BOT_ID: 'abc' }, /^BOT_ID=abc is not valid: it should hold the BotID the suite creates dialogs on \(a positive integer\)/);
  refused({ ...TARGET, BOT_ID: '-5' }, /^BOT_ID=-5 is not valid: it should hold the BotID the suite creates dialogs on \(a positive integer\)/);
  refused({ ...TARGET, GOTO_BOT_ID: '0' }, /^GOTO_BOT_ID=0 is not valid/);
  refused({ ...TARGET, GOTO_BOT_ID: '7' }, /GOTO_BOT_ID=7 equals BOT_ID/);
  refused({ ...TARGET, API_BASE_URL: 'ftp://x' }, /^API_BASE_URL=ftp:\/\/x is not valid/);
  refused({ ...TARGET, API_BASE_URL: 'https://u:p@host' }, /^API_BASE_URL must not carry credentials/);
  refused({ ...TARGET, API_BASE_URL: 'https://host/api' }, /ends with \/api/);
  refused({ ...TARGET, CALLBACK_PORT: '70000' }, /^CALLBACK_PORT=70000 is not valid: it should hold a TCP port/);
  refused({ ...TARGET, CALLBACK_HOST: 'a host' }, /^CALLBACK_HOST=a host is not valid/);
  refused({ ...TARGET, CALLBACK_TIMEOUT_S: '0' }, /^CALLBACK_TIMEOUT_S=0 is not valid/);
  refused({ ...TARGET, MAX_RPS: '-2' }, /^MAX_RPS=-2 is not valid/);
  refused({ ...TARGET, WORKERS: '0' }, /^WORKERS=0 is not valid/);
  refused({ ...TARGET, THROTTLE_MAX_RETRIES: 'many' }, /^THROTTLE_MAX_RETRIES=many is not valid/);
  refused({ ...TARGET, PROBE_BUDGET: '0' }, /^PROBE_BUDGET=0 is not valid/);
});

test('body templates are checked when read', () => {
  const config = parseSuiteConfig(
    {
      ...TARGET,
      SEND_BODY: '{"message":"{{text}}"}',
      COMMAND_BODY: '{"command":"goto","bot":{{botId}}}',
      MAX_RPS: '12.5',
      WORKERS: '2',
    },
    WHOLE,
  );
  assert.deepEqual(
    [config.sendBody, config.commandBody, config.maxRps, config.workers],
    ['{"message":"{{text}}"}', '{"command":"goto","bot":{{botId}}}', 12.5, 2],
  );
  refused(
    { ...TARGET, SEND_BODY: '{"message":"hi"}' },
    /^SEND_BODY must hold \{\{text\}\} as a whole value.*: give a JSON template such as \{"message":"\{\{text\}\}"\}/,
  );
  refused({ ...TARGET, COMMAND_BODY: '{"command":"goto","bot":{{bot}}}' }, /^COMMAND_BODY unknown placeholder \{\{bot\}\}/);
  // The position is one in what the user wrote (25 characters), not in the text with {{text}} filled in.
  refused(
    { ...TARGET, SEND_BODY: '{"message": "{{text}}", }' },
    /^SEND_BODY is not JSON: expected a property name in double quotes at character 25 of 25, after '…ssage": "\{\{text\}\}", ': give a JSON template/,
  );
});

test('the Basic header is computed without Buffer, UTF-8 included, and is a secret', () => {
  for (const [login, password] of [
    ['qa', 'p4ss-word'],
    ['ünï', 'pässwörd€𝄞'],
    ['a', ''],
    ['ab', 'c'],
  ]) {
    assert.equal(basicAuthorization(login!, password!), `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`);
  }
  const config = parseSuiteConfig({ ...TARGET, VERTEX_TOKEN: 'tok-123456' }, WHOLE);
  assert.deepEqual(secretsOf(config), ['p4ss-word', Buffer.from('qa:p4ss-word').toString('base64'), 'tok-123456']);
});

test('the k6 scripts read only what they use: the target and credentials, BOT_ID where they create dialogs', () => {
  const target = { API_BASE_URL: 'https://staging.example.com/', API_LOGIN: 'qa', API_PASSWORD: 'pw-1234' };
  const config = parseLoadConfig(target);
  assert.equal(config.baseUrl, 'https://staging.example.com');
  assert.equal(config.botId, undefined);
  assert.throws(() => needBotId(config), /^ConfigError: BOT_ID is missing: set it in \.env/);
  assert.equal(needBotId(parseLoadConfig({ ...target, BOT_ID: '101' })), 101);
  assert.throws(() => parseLoadConfig({ ...target, BOT_ID: 'one' }), /BOT_ID=one is not valid/);
  assert.throws(() => parseLoadConfig({ ...target, API_BASE_URL: '' }), /API_BASE_URL is missing: run the k6 scripts through `npm run load`/);
  assert.throws(() => parseLoadConfig({ ...target, API_PASSWORD: '' }), /API_PASSWORD is missing/);
});
