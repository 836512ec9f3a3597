// The client's requests straight to the target: the credentials of each request's mode added here and nowhere else,
// a gateway's prefix kept, the answer as the target gave it, no answer said as such, and each send told to the pace.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { TargetTransport, type PaceEvents } from './target-transport.ts';

const CREDENTIALS = { login: 'qa', password: 'secret-pass-1' };
const basic = (password: string) => `Basic ${Buffer.from(`qa:${password}`).toString('base64')}`;

/** A target that answers each request with `answer`, its requests kept as they came. */
async function target(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** The events a transport tells its pace, in order. */
function paceEvents(): PaceEvents & { told: string[] } {
  const told: string[] = [];
  return {
    told,
    sent: (_at, held) => void told.push(`sent ${held ? 'held' : 'not held'}`),
    answered: (_at, _sentAt, held, status, headers) =>
      void told.push(`answered ${status} ${held ? 'held' : 'not held'} ${Object.keys(headers).sort().join(',')}`),
    lost: () => void told.push('lost'),
  };
}

const GET = { method: 'GET', path: 'v2/conversations?BotID=1', headers: {}, timeoutMs: 2_000 };

test("each mode's credentials, and only the transport's: a caller's Authorization and Host never go; a gateway's prefix stays before the API's path", async () => {
  const t = await target((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  const pace = paceEvents();
  const transport = new TargetTransport(`${t.url}/gateway/dialog/`, CREDENTIALS, pace);
  try {
    for (const auth of ['valid', 'wrong', 'none'] as const) {
      const sent = await transport.send(auth, { ...GET, headers: { Authorization: 'Basic ZXZlOmV2ZQ==', 'x-trace': '1' } });
      assert.ok('response' in sent && sent.response.status === 200);
    }
    const posted = await transport.send('valid', {
      method: 'POST',
      path: 'v2/conversation/u-1/send',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"é"}',
      timeoutMs: 2_000,
    });
    assert.ok('response' in posted);
    assert.deepEqual(
      t.seen.map((r) => [r.url, r.headers.authorization, r.headers['x-trace']]),
      [
        ['/gateway/dialog/api/v2/conversations?BotID=1', basic('secret-pass-1'), '1'],
        ['/gateway/dialog/api/v2/conversations?BotID=1', basic('secret-pass-1-wrong'), '1'],
        ['/gateway/dialog/api/v2/conversations?BotID=1', undefined, '1'],
        ['/gateway/dialog/api/v2/conversation/u-1/send', basic('secret-pass-1'), undefined],
      ],
    );
    assert.equal(t.seen[3]!.body, '{"text":"é"}');
    assert.equal(t.seen[3]!.headers['content-length'], String(Buffer.byteLength('{"text":"é"}')));
    // Only the run's own credentials count against its limit.
    assert.deepEqual(pace.told, [
      'sent held',
      'answered 200 held content-type,date',
      'sent not held',
      'answered 200 not held content-type,date',
      'sent not held',
      'answered 200 not held content-type,date',
      'sent held',
      'answered 200 held content-type,date',
    ]);
  } finally {
    transport.close();
    t.close();
  }
});

test('the answer as the target gave it: its status text and headers, not the connection’s, its body decoded', async () => {
  const t = await target((_req, res) =>
    res.writeHead(201, 'Made', { 'content-type': 'application/json', 'content-encoding': 'gzip', 'set-cookie': ['a=1', 'b=2'] }).end(gzipSync('{"id":1}')),
  );
  const transport = new TargetTransport(t.url, CREDENTIALS);
  try {
    const sent = await transport.send('valid', GET);
    assert.ok('response' in sent);
    const { status, statusText, headers, body } = sent.response;
    assert.deepEqual([status, statusText, body.toString()], [201, 'Made', '{"id":1}']);
    assert.equal(headers['set-cookie'], 'a=1\nb=2');
    assert.equal(headers.connection, undefined);
    assert.equal(headers['keep-alive'], undefined);
    assert.equal(headers['transfer-encoding'], undefined);
  } finally {
    transport.close();
    t.close();
  }
});

test('no whole answer says why: refused and timed out without a status, a body cut short or never sent with the status that came', async () => {
  const cut = await target((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '100' });
    res.write('only ten b');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  // A 204 announcing a body: HTTP's framing ends it at its headers, so the bytes it announced never come.
  const announced = await target((_req, res) => res.writeHead(204, { 'content-type': 'application/json', 'content-length': '15' }).end('{"status":"ok"}'));
  const silent = await target(() => {});
  const closed = await target(() => {});
  closed.close();
  const pace = paceEvents();
  const transports = [cut, silent, closed, announced].map((t) => new TargetTransport(t.url, CREDENTIALS, pace));
  try {
    const [broken, late, refused, empty] = await Promise.all(
      transports.map((transport, i) => transport.send('valid', { ...GET, timeoutMs: i === 1 ? 200 : 2_000 })),
    );
    assert.ok('lost' in broken! && broken.status === 200, JSON.stringify(broken));
    assert.ok('lost' in empty! && empty.status === 204 && /announced 15 bytes of body and carried 0/.test(empty.lost), JSON.stringify(empty));
    assert.ok('lost' in late! && late.status === undefined && /^ETIMEDOUT: Timeout 200ms exceeded for the headers$/.test(late.lost), JSON.stringify(late));
    assert.ok('lost' in refused! && refused.status === undefined && /ECONNREFUSED/.test(refused.lost), JSON.stringify(refused));
    // Each send told once: the cut answer when its status came, the others when they gave up.
    assert.deepEqual(pace.told.filter((e) => !e.startsWith('sent')).sort(), [
      'answered 200 held content-length,content-type,date',
      'answered 204 held content-length,content-type,date',
      'lost',
      'lost',
    ]);
  } finally {
    for (const transport of transports) transport.close();
    announced.close();
    cut.close();
    silent.close();
  }
});

test('a slow answer that keeps coming is whole; an IPv6 literal is reached; a request Node cannot write is lost, the pace told nothing', async () => {
  // Headers at once, then a part every 120 ms: 600 ms in all, against a time of 200 ms without a word.
  const slow = await target((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    let parts = 0;
    const timer = setInterval(() => {
      if (++parts < 5) res.write(`${parts}`);
      else {
        clearInterval(timer);
        res.end('5');
      }
    }, 120);
  });
  const server = createServer((_req, res) => res.writeHead(200).end('v6'));
  await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
  const pace = paceEvents();
  const transports = [
    new TargetTransport(slow.url, CREDENTIALS, pace),
    new TargetTransport(`http://[::1]:${(server.address() as AddressInfo).port}`, CREDENTIALS),
  ];
  try {
    const whole = await transports[0]!.send('valid', { ...GET, timeoutMs: 200 });
    assert.ok('response' in whole && whole.response.body.toString() === '12345', JSON.stringify(whole));
    const v6 = await transports[1]!.send('valid', GET);
    assert.ok('response' in v6 && v6.response.body.toString() === 'v6', JSON.stringify(v6));
    const told = pace.told.length;
    const refused = await transports[0]!.send('valid', { ...GET, headers: { 'x-note': 'two\nlines' } });
    assert.ok('lost' in refused && refused.status === undefined, JSON.stringify(refused));
    assert.equal(pace.told.length, told);
  } finally {
    for (const transport of transports) transport.close();
    slow.close();
    server.close();
  }
});
