// What a QA engineer expects of a stand-in for the vendor's staging: the store, lists and filters, the state
// machine, custom blocks, files, determinism.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { blockListener, findDialog, simulator, type TestSimulator } from './test-support.ts';

const items = (list: Record<string, any>) =>
  Object.keys(list)
    .filter((k) => k !== 'meta')
    .map((k) => list[k]);

describe('simulator behaviour', () => {
  let sim: TestSimulator;
  let listener: Awaited<ReturnType<typeof blockListener>>;
  before(async () => {
    listener = await blockListener();
    sim = await simulator({ callbackUrl: listener.url });
  });
  after(async () => {
    await Promise.all([sim.close(), listener.close()]);
  });

  it('gives the same data for the same seed and different data for another seed', async () => {
    const again = await simulator({ callbackUrl: listener.url });
    const other = await simulator({ seed: 2 });
    try {
      for (const path of ['/api/v1/conversations?PageCount=200', '/api/v2/conversations?PageCount=200']) {
        const [a, b, c] = await Promise.all([sim, again, other].map(async (s) => (await s.call('GET', path)).body));
        assert.equal(a, b);
        assert.notEqual(a, c);
      }
    } finally {
      await Promise.all([again.close(), other.close()]);
    }
  });

  it('pages with decimal keys, per_page 40 by default, newest first and total_pages = ceil(total / per_page)', async () => {
    const first = (await sim.call('GET', '/api/v1/conversations')).json();
    const p = first.meta.pagination;
    assert.deepEqual(Object.keys(first).slice(0, 3), ['0', '1', '2']);
    assert.equal(p.per_page, 40);
    assert.equal(p.count, 40);
    assert.equal(p.current_page, 1);
    assert.equal(p.total_pages, Math.ceil(p.total / 40));
    assert.deepEqual(p.links, {});
    const ids = items(first).map((d) => d.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );
    const last = (await sim.call('GET', `/api/v1/conversations?PageNumber=${p.total_pages}`)).json();
    assert.equal(last.meta.pagination.count, p.total - 40 * (p.total_pages - 1));
    const past = (await sim.call('GET', `/api/v1/conversations?PageNumber=${p.total_pages + 1}`)).json();
    assert.deepEqual(Object.keys(past), ['meta']);
    assert.equal(past.meta.pagination.total, p.total);
    const none = (await sim.call('GET', '/api/v1/conversations?BotID=4242')).json();
    assert.deepEqual(none.meta.pagination, { total: 0, count: 0, per_page: 40, current_page: 1, total_pages: 0, links: {} });
  });

  it('shows the same dialog identically in V1 and V2, except id, source and an empty V2 updated', async () => {
    const v1 = items((await sim.call('GET', '/api/v1/conversations?PageCount=200')).json());
    const v2 = items((await sim.call('GET', '/api/v2/conversations?PageCount=200')).json());
    assert.equal(v1.length, v2.length);
    let silent = 0;
    v1.forEach((a, i) => {
      const { id: id1, updated: u1, ...rest1 } = a;
      const { id: id2, updated: u2, source, ...rest2 } = v2[i];
      assert.deepEqual(rest1, rest2);
      assert.equal(source, 'web');
      assert.equal(a.name.startsWith(`#${id1} `), true);
      assert.equal(a.name, `#${id1} ${a.location}`);
      if (u2 === '') silent++;
      else assert.equal(u1, u2);
      assert.match(u1, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    });
    assert.ok(silent > 0, 'some dialogs have no message yet');
    assert.deepEqual([...new Set(v1.map((d) => d.status))].sort(), ['completed', 'in-process', 'new', 'operator']);
    const record1 = (await sim.call('GET', `/api/v1/conversation/${v1[0].id}`)).json();
    const record2 = (await sim.call('GET', `/api/v2/conversation/${v2[0].id}`)).json();
    assert.deepEqual(record1.data, record2.data);
  });

  it('filters by bot, creation period and last-message period', async () => {
    const all = items((await sim.call('GET', '/api/v2/conversations?PageCount=500')).json());
    const byBot = items((await sim.call('GET', '/api/v1/conversations?BotID=202&PageCount=500')).json());
    assert.ok(byBot.length > 0 && byBot.length < all.length);
    const created = (await sim.call('GET', '/api/v2/conversations?CreatedFrom=2026-11-01&CreatedTo=2026-11-10T23:59:59%2B00:00&PageCount=500')).json();
    assert.ok(created.meta.pagination.total > 0 && created.meta.pagination.total < all.length);
    const updated = items((await sim.call('GET', '/api/v2/conversations?UpdatedFrom=2026-11-01T00:00:00Z&UpdatedTo=2026-11-10&PageCount=500')).json());
    assert.ok(updated.length > 0);
    for (const d of updated) {
      assert.ok(d.updated >= '2026-11-01' && d.updated < '2026-11-11', d.updated);
    }
    const offset = (await sim.call('GET', '/api/v2/conversations?UpdatedFrom=2026-11-01T02:00:00%2B02:00&UpdatedTo=2026-11-10&PageCount=500')).json();
    assert.equal(offset.meta.pagination.total, updated.length);
  });

  it('creates dialogs that are not started (V1 and V2 GET) and started ones (V2 POST), with variables as data items', async () => {
    const variables = encodeURIComponent(JSON.stringify({ client_name: 'Ada', contract: 42 }));
    const v1 = (await sim.call('GET', `/api/v1/dialog/101/create?variables=${variables}`)).json();
    const v2 = (await sim.call('GET', '/api/v2/dialog/202/create')).json();
    const started = (await sim.call('POST', '/api/v2/dialog/101/create', { body: { response: true, variables: '{"client_name":"Bob"}' } })).json();
    const read = async (uuid: string) => (await sim.call('GET', `/api/v2/conversation/${uuid}`)).json();
    const a = await read(v1.dialogId);
    assert.equal(a.status, 'new');
    assert.equal(a.updated, '');
    assert.deepEqual(a.data, [
      { question: '', type: 'Variable', answer: 'Ada', variable: 'client_name' },
      { question: '', type: 'Variable', answer: '42', variable: 'contract' },
    ]);
    assert.equal((await read(v2.dialogUUID)).status, 'new');
    const b = (await sim.call('GET', `/api/v1/conversation/${started.dialogId}`)).json();
    assert.equal(b.status, 'in-process');
    assert.equal(b.data[0].answer, 'Bob');
    const byBot = items((await sim.call('GET', '/api/v2/conversations?BotID=101&PageCount=1')).json());
    assert.equal(byBot[0].id, started.dialogUUID, 'the newest dialog comes first');
    const quiet = await sim.call('POST', '/api/v2/dialog/101/create?response=false');
    assert.equal(quiet.status, 204);
    assert.equal(quiet.body, '');
  });

  it('moves dialogs through start, stop, send and command, and refuses completed ones', async () => {
    const { uuid } = await findDialog(sim, 'in-process');
    const read = async () => (await sim.call('GET', `/api/v2/conversation/${uuid}`)).json();
    assert.equal((await sim.call('POST', `/api/v2/conversation/${uuid}/send`, { body: { text: 'hi' } })).status, 403, 'send needs an operator');
    assert.equal((await sim.call('POST', `/api/v2/conversation/${uuid}/stop`)).status, 204);
    assert.equal((await read()).status, 'operator');
    assert.equal((await sim.call('POST', `/api/v2/conversation/${uuid}/send`, { body: { text: 'An operator here' } })).status, 204);
    assert.equal((await read()).updated, '2026-11-20T10:00:00+00:00');
    assert.equal((await sim.call('POST', `/api/v2/conversation/${uuid}/start`)).status, 204);
    assert.equal((await read()).status, 'in-process');
    const before = (await read()).name;
    assert.equal((await sim.call('POST', `/api/v2/conversation/${uuid}/command`, { body: { command: 'goto', bot_id: 505 } })).status, 204);
    const onTarget = items((await sim.call('GET', '/api/v2/conversations?BotID=505&PageCount=500')).json());
    assert.ok(onTarget.some((d) => d.id === uuid && d.name === before));
    const completed = await findDialog(sim, 'completed');
    for (const action of ['start', 'stop']) {
      assert.equal((await sim.call('POST', `/api/v2/conversation/${completed.uuid}/${action}`)).status, 403);
    }
    assert.equal((await sim.call('GET', `/api/v2/conversation/${completed.uuid}`)).status, 200, 'a completed dialog stays readable');
  });

  it('delivers an integration token to the custom block, accepts it on vertex until complete, then refuses it', async () => {
    const created = (await sim.call('GET', '/api/v2/dialog/303/create')).json();
    assert.equal((await sim.call('POST', `/api/v2/conversation/${created.dialogUUID}/start`)).status, 204);
    const { method, contentType, fields: call } = await listener.next();
    assert.equal(method, 'POST');
    assert.equal(contentType, 'application/json');
    assert.deepEqual(Object.keys(call).sort(), ['bot_id', 'dialog_id', 'dialog_uuid', 'token']);
    assert.equal(call.dialog_uuid, created.dialogUUID);
    assert.equal(call.bot_id, 303);
    const sent = await sim.call('POST', '/api/vertex/v1/dialog/send_message', { body: { token: call.token, text: 'Hello', typing: true } });
    assert.equal(sent.status, 200);
    assert.equal(sent.json().created_at, Math.floor(Date.parse('2026-11-20T10:00:00Z') / 1000));
    assert.equal((await sim.call('POST', '/api/vertex/v1/complete', { body: { token: call.token, data: { ok: 1 } } })).status, 204);
    assert.equal((await sim.call('POST', '/api/vertex/v1/complete', { body: { token: call.token } })).status, 403);
    assert.equal((await sim.call('POST', '/api/vertex/v1/dialog/send_message', { body: { token: call.token, text: 'x' } })).status, 403);
    assert.equal((await sim.call('GET', `/api/v2/conversation/${created.dialogUUID}`)).json().status, 'in-process');
  });

  it('logs a failing block URL once and keeps serving', async () => {
    const lonely = await simulator({ callbackUrl: 'http://127.0.0.1:9/unreachable' });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await lonely.call('POST', '/api/v2/dialog/303/create')).status, 204);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(lonely.logs.length, 1, lonely.logs.join('\n'));
      assert.match(lonely.logs[0]!, /custom block callback to http:\/\/127\.0\.0\.1:9\/unreachable failed/);
    } finally {
      await lonely.close();
    }
  });

  it('serves file links of the data as bytes with a content type', async () => {
    const list = items((await sim.call('GET', '/api/v1/conversations?PageCount=500')).json());
    const links: Array<{ answer: string; deleted: boolean }> = [];
    for (const d of list.slice(0, 60)) {
      const record = (await sim.call('GET', `/api/v1/conversation/${d.id}`)).json();
      for (const item of record.data) if ('deleted' in item) links.push(item);
    }
    const live = links.find((l) => !l.deleted)!;
    assert.match(live.answer, new RegExp(`^${sim.url}/api/v1/file/\\d+$`));
    const file = await sim.call('GET', live.answer.slice(sim.url.length));
    assert.equal(file.status, 200);
    assert.match(file.contentType ?? '', /^(image\/png|application\/pdf|text\/plain)/);
    assert.ok(file.body.length > 0);
    const v2 = await sim.call('GET', live.answer.slice(sim.url.length).replace('/v1/', '/v2/'));
    assert.equal(v2.body, file.body);
  });

  it('answers a request node cannot parse with a 400 problem', async () => {
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(sim.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
    });
    assert.match(raw, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(raw, /"status":400/);
  });
});
