// Vendor profiles: each loads, differs from the default in every "not shown" choice a vendor makes on its own,
// together they cover the variants the suite must survive, and each serves with its own choices (rate limit,
// error format, zone of `updated`, page size). Agreement with the OpenAPI document: agreement.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CONFIG, type SimulatorConfig } from './config.ts';
import { listProfiles, loadProfile, profileConfig, UnknownProfileError } from './profiles.ts';
import { startSimulator, type SimulatorOptions } from './server.ts';
import { seededStore, simulator } from './test-support.ts';

const NAMES = listProfiles().filter((name) => name !== 'default');
const PROFILES = NAMES.map((name) => ({ name, config: profileConfig(name) }));
const D = DEFAULT_CONFIG;
const some = (test: (c: SimulatorConfig) => boolean) => PROFILES.some(({ config }) => test(config));
const values = <T>(pick: (c: SimulatorConfig) => T) => new Set(PROFILES.map(({ config }) => pick(config)));
const CONTENT_TYPES: Record<Exclude<SimulatorConfig['errors']['format'], 'custom'>, RegExp | undefined> = {
  problem: /^application\/problem\+json$/,
  'problem-instance': /^application\/problem\+json$/,
  fields: /^application\/json/,
  json: /^application\/json/,
  envelope: /^application\/json/,
  text: /^text\/plain/,
  empty: undefined,
};

describe('vendor profiles', () => {
  it('are the default and at least five others, each with a description, each resolving to a valid config', () => {
    assert.ok(listProfiles().includes('default'));
    assert.ok(NAMES.length >= 5, NAMES.join(', '));
    for (const name of listProfiles()) {
      assert.match(name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(loadProfile(name).description.length > 20, name);
    }
    assert.deepEqual(profileConfig('default'), DEFAULT_CONFIG);
  });

  it('merge as DEFAULT_CONFIG <- profile <- config <- drifts, and refuse an unknown name listing the known ones', async () => {
    const options = { port: 0, log: () => {} };
    const runs: Array<[SimulatorOptions, number]> = [
      [{ profile: 'envelope-multipart' }, 25],
      [{ profile: 'envelope-multipart', config: { lists: { defaultPageCount: 7 } } }, 7],
      [{ profile: 'envelope-multipart', config: { lists: { defaultPageCount: 7 } }, drifts: ['default-page-count-20'] }, 20],
    ];
    for (const [extra, pageCount] of runs) {
      const sim = await startSimulator({ ...options, ...extra });
      await sim.close();
      assert.equal(sim.config.lists.defaultPageCount, pageCount);
      assert.equal(sim.config.errors.format, 'envelope');
    }
    await assert.rejects(startSimulator({ ...options, profile: 'acme' }), (err: Error) => {
      assert.ok(err instanceof UnknownProfileError);
      assert.equal(err.message, `unknown profile "acme"; known: ${listProfiles().join(', ')} (--list-profiles)`);
      return true;
    });
  });

  for (const { name, config: c } of PROFILES) {
    it(`${name} differs from the default in each choice a vendor makes on its own`, () => {
      const differs = (what: string, pick: (c: SimulatorConfig) => unknown) => assert.notDeepEqual(pick(c), pick(D), `${name}: ${what} is the default's`);
      assert.deepEqual([c.statuses.inProcess, c.statuses.completed], ['in-process', 'completed'], 'documented status strings (spec §3)');
      differs('the created status', (x) => x.statuses.created);
      differs('the operator status', (x) => x.statuses.operator);
      differs('the send text field', (x) => x.send.textFields);
      // Issue 48's vendor keeps `command` and nests the bot: the body differs, not each field.
      differs('the command body', (x) => [x.command.commandField, x.command.botField]);
      differs('the bot field', (x) => x.command.botField);
      differs('the validation order', (x) => x.validation.dialogBeforeBody);
      differs('the error format', (x) => x.errors.format);
      differs('the callback shape', (x) => [x.callback.encoding, x.callback.method, x.callback.tokenHeader, x.callback.fields]);
      assert.ok(c.callback.fields.dialogId !== null || c.callback.fields.dialogUuid !== null, `${name}: the callback names no dialog`);
      differs('GET V2 create', (x) => x.create.v2Get);
      differs('start on a completed dialog', (x) => x.transitions.startCompleted);
      differs('the zone of updated', (x) => x.format.updatedOffset);
      differs('seed sources', (x) => x.seed.sources);
      differs('data item types', (x) => x.seed.dataTypes);
      assert.ok(
        c.seed.dataTypes.some((t) => /text|string/i.test(t)),
        `${name}: no data item type is a text answer`,
      );
      const rate = c.limits.rate;
      assert.ok(rate && rate.perSecond <= 20 && rate.burst <= 20, `${name}: a run of ~500 requests must meet the rate limit`);
      const max = c.limits.maxPageCount;
      assert.ok(max && max.value >= (max.clamp ? 50 : 100), `${name}: PageCount maximum`);
    });

    it(`${name} seeds the history the suite needs on its main bot`, () => {
      const [main] = c.bots.filter((b) => !b.blocked && b.customBlockUrl === null);
      assert.ok(c.bots.filter((b) => !b.blocked && b.customBlockUrl === null).length >= 2, 'a main bot and a goto target');
      assert.ok(c.bots.some((b) => b.blocked) && c.bots.some((b) => !b.blocked && b.customBlockUrl), 'a blocked bot and a custom-block bot');
      const dialogs = seededStore(loadProfile(name).patch).dialogs.filter((d) => d.botId === main!.id && !d.deleted);
      assert.ok(dialogs.filter((d) => d.state === 'completed').length >= 5, 'completed dialogs');
      assert.ok(dialogs.filter((d) => d.lastMessageAt !== null).length >= 10, 'dialogs with messages');
      assert.ok(dialogs.filter((d) => d.fileId !== undefined).length >= 3, 'file links');
    });

    it(`${name} serves with its own page size, zone, error format and rate limit`, async () => {
      const sim = await simulator({ profile: name });
      try {
        const first = await sim.call('GET', '/api/v1/conversations');
        assert.equal(first.status, 200);
        const list = first.json();
        assert.equal(list.meta.pagination.per_page, c.lists.defaultPageCount);
        assert.ok(String(list['0'].updated).endsWith(c.format.updatedOffset), list['0'].updated);
        const rate = c.limits.rate!;
        const answers = [first];
        for (let i = 1; i <= rate.burst; i++) answers.push(await sim.call('GET', '/api/v1/conversations?PageCount=1'));
        assert.deepEqual(
          answers.map((a) => a.status),
          [...Array(rate.burst).fill(200), 429],
        );
        const limited = answers.at(-1)!;
        const retryAfter = limited.headers['retry-after'];
        if (rate.retryAfter === 'none') assert.equal(retryAfter, undefined);
        else assert.match(String(retryAfter), rate.retryAfter === 'http-date' ? /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/ : /^\d+$/);
        const prefix = { 'x-ratelimit': 'x-ratelimit-', ratelimit: 'ratelimit-', ietf: 'ratelimit', none: undefined }[rate.headers ?? 'x-ratelimit'];
        const quota = Object.keys(first.headers).filter((h) => h.includes('ratelimit'));
        assert.ok(prefix === undefined ? quota.length === 0 : quota.length > 0 && quota.every((h) => h.startsWith(prefix)), quota.join(', '));
        const type = c.errors.format === 'custom' ? c.errors.custom!.contentType : CONTENT_TYPES[c.errors.format];
        if (typeof type === 'string') assert.equal(limited.contentType, type);
        else if (type) assert.match(limited.contentType ?? '', type);
        else assert.deepEqual([limited.contentType, limited.body], [null, '']);
      } finally {
        await sim.close();
      }
    });
  }

  it('together cover the variants the suite must survive', () => {
    const covers = (what: string, test: (c: SimulatorConfig) => boolean) => assert.ok(some(test), `no profile has ${what}`);
    const atLeast = (n: number, what: string, test: (c: SimulatorConfig) => boolean) =>
      assert.ok(PROFILES.filter(({ config }) => test(config)).length >= n, `fewer than ${n} profiles have ${what}`);
    atLeast(2, 'the dialog checked before the body', (c) => c.validation.dialogBeforeBody);
    for (const format of ['envelope', 'json', 'text', 'empty', 'fields', 'problem-instance']) covers(`${format} errors`, (c) => c.errors.format === format);
    covers('a form callback', (c) => c.callback.encoding === 'form');
    covers('a GET callback with the fields in the query', (c) => c.callback.encoding === 'query' && c.callback.method === 'GET');
    covers('a multipart callback with X-Integration-Token', (c) => c.callback.encoding === 'multipart' && c.callback.tokenHeader === 'X-Integration-Token');
    covers(
      'a PUT JSON callback with the token nested two deep',
      (c) =>
        c.callback.encoding === 'json' &&
        c.callback.method === 'PUT' &&
        c.callback.tokenHeader === null &&
        (c.callback.fields.token ?? '').split('.').length >= 3,
    );
    covers(
      'a JSON callback of ids only with Authorization: Bearer',
      (c) => c.callback.encoding === 'json' && c.callback.tokenHeader?.toLowerCase() === 'authorization' && c.callback.fields.botId === null,
    );
    const creates = [...values((c) => c.create.v2Get), ...values((c) => c.create.startedWithoutResponse)];
    covers('200 {} on create', () => creates.some((r) => r.status === 200 && r.body === 'empty-object'));
    covers('200 with ids on create', () => creates.some((r) => r.status === 200 && r.body.startsWith('ids')));
    covers('204 for response=false', (c) => c.create.startedWithoutResponse.status === 204);
    atLeast(2, 'start reopening a completed dialog', (c) => c.transitions.startCompleted === 'reopen');
    for (const form of ['seconds', 'http-date', 'none']) covers(`Retry-After ${form}`, (c) => (c.limits.rate?.retryAfter ?? 'seconds') === form);
    for (const style of ['x-ratelimit', 'ratelimit', 'none']) covers(`${style} headers`, (c) => (c.limits.rate?.headers ?? 'x-ratelimit') === style);
    atLeast(2, 'a clamped PageCount', (c) => c.limits.maxPageCount?.clamp === true);
    covers('a refused PageCount', (c) => c.limits.maxPageCount?.clamp !== true);
    for (const zone of ['Z', '+03:00', '-05:00', '+05:30']) covers(`updated in ${zone}`, (c) => c.format.updatedOffset === zone);
    covers('a nested send field', (c) => c.send.textFields.some((f) => f.includes('.')));
    covers('bot ids as strings', (c) => c.command.botType === 'string');
    covers('a nested bot field', (c) => c.command.botField.includes('.'));
    covers('another default page size', (c) => c.lists.defaultPageCount !== D.lists.defaultPageCount);
    covers('oldest first', (c) => c.lists.order === 'oldest-first');
    covers('send before an operator joins', (c) => c.send.allowedStatuses.some((s) => s !== 'operator'));
    covers('the operator message as a data item', (c) => c.send.dataItem !== null);
    covers('a lenient send', (c) => c.send.lenient);
    covers('a lenient command', (c) => c.command.lenient);
    covers('400 for an unknown goto bot', (c) => c.command.unknownBotStatus === 400);
    assert.ok(values((c) => JSON.stringify(c.command.success)).size >= 3, 'command success variants');
    covers('no V2 file download', (c) => c.files.v2 === 'not-found');
    covers('send_message without text', (c) => !c.vertex.requireText);
    covers('other credentials', (c) => c.auth.login !== D.auth.login && c.auth.password !== D.auth.password);
    covers('other bot ids', (c) => c.bots.every((b) => !D.bots.some((d) => d.id === b.id)));
  });
});
