// The staging network's gateway mode: its own Date header over the application's, which then shows its clock only in
// what it stamps (the suite must read the vendor's clock from those, issue 32).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startStagingNetwork } from './staging-network.ts';
import { call, simulator } from './test-support.ts';

test("a gateway that writes its own Date header: the gateway's clock in the header, the application's in its stamps", async () => {
  // Both clocks driven: the application's stands 90 s behind, the gateway's host 7 s ahead of the application's now.
  const now = Date.parse('2026-11-26T10:00:00Z');
  const sim = await simulator({ config: { clock: { offsetSeconds: -90 } }, now: () => now });
  const gatewayClock = { now: () => now + 7_000, wait: (_ms: number, then: () => void) => setImmediate(then) };
  const gateway = await startStagingNetwork({ target: sim.url, gatewayDate: true, clock: gatewayClock });
  const direct = await startStagingNetwork({ target: sim.url });
  try {
    const created = (await call(gateway.url, 'POST', '/api/v2/dialog/101/create', { body: { response: true } })).json();
    const answer = await call(gateway.url, 'GET', `/api/v2/conversation/${created.dialogUUID}`);
    assert.equal(answer.headers.date, new Date(now + 7_000).toUTCString(), "the gateway's Date is its host's clock");
    // V2 updated is empty before a message; V1 writes the creation time there: the application's clock, 90 s behind.
    const v1 = (await call(gateway.url, 'GET', `/api/v1/conversation/${created.dialogId}`)).json();
    assert.equal(Date.parse(v1.updated), now - 90_000, `V1 updated ${v1.updated} is 90 s behind`);
    const through = await call(direct.url, 'GET', '/api/v2/conversations?PageCount=1');
    assert.equal(through.headers.date, new Date(now - 90_000).toUTCString(), 'without the mode, the application writes it');
  } finally {
    await gateway.close();
    await direct.close();
    await sim.close();
  }
});

test('a network a latency away: every round trip takes its share of [min, max] more, half each way, the answers unchanged', async () => {
  const sim = await simulator();
  // The network's timers, recorded: what each request was made to wait on its way there and back.
  const waits: number[] = [];
  const clock = {
    now: Date.now,
    wait: (ms: number, then: () => void) => {
      waits.push(ms);
      setImmediate(then);
    },
  };
  const far = await startStagingNetwork({ target: sim.url, latencyMs: [80, 140], seed: 3, clock });
  try {
    for (let i = 0; i < 8; i++) assert.equal((await call(far.url, 'GET', '/api/v2/conversations?PageCount=1')).status, 200);
    assert.equal(waits.length, 16, 'two waits a request: on the way to the target and back');
    const trips = Array.from({ length: 8 }, (_, i) => waits[2 * i]! + waits[2 * i + 1]!);
    assert.ok(
      trips.every((t) => t >= 80 && t <= 140),
      `round trips within [80, 140] ms: ${trips.map(Math.round).join(', ')}`,
    );
    assert.ok(new Set(trips.map(Math.round)).size > 4, `drawn, not fixed: ${trips.map(Math.round).join(', ')}`);
    assert.ok(
      waits.every((w, i) => i % 2 === 0 || w === waits[i - 1]),
      'half each way',
    );
  } finally {
    await far.close();
    await sim.close();
  }
});
