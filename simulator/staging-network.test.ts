// The staging network's gateway mode: its own Date header over the application's, which then shows its clock only in
// what it stamps (the suite must read the vendor's clock from those, issue 32).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startStagingNetwork } from './staging-network.ts';
import { call, simulator } from './test-support.ts';

test("a gateway that writes its own Date header: the gateway's clock in the header, the application's in its stamps", async () => {
  const sim = await simulator({ config: { clock: { offsetSeconds: -90 } }, now: Date.now });
  const gateway = await startStagingNetwork({ target: sim.url, gatewayDate: true });
  const direct = await startStagingNetwork({ target: sim.url });
  try {
    const sentAt = Date.now();
    const created = (await call(gateway.url, 'POST', '/api/v2/dialog/101/create', { body: { response: true } })).json();
    const answer = await call(gateway.url, 'GET', `/api/v2/conversation/${created.dialogUUID}`);
    const date = Date.parse(String(answer.headers.date));
    assert.ok(Math.abs(date - sentAt) < 3000, `the gateway's Date ${answer.headers.date} is its host's clock`);
    // V2 updated is empty before a message; V1 writes the creation time there: the application's clock, 90 s behind.
    const v1 = (await call(gateway.url, 'GET', `/api/v1/conversation/${created.dialogId}`)).json();
    assert.ok(Math.abs(Date.parse(v1.updated) - (sentAt - 90_000)) < 3000, `V1 updated ${v1.updated} is 90 s behind`);
    const through = await call(direct.url, 'GET', '/api/v2/conversations?PageCount=1');
    assert.ok(Math.abs(Date.parse(String(through.headers.date)) - (sentAt - 90_000)) < 3000, 'without the mode, the application writes it');
  } finally {
    await gateway.close();
    await direct.close();
    await sim.close();
  }
});

test('a network a latency away: every round trip takes its share of [min, max] more, the answers unchanged', async () => {
  const sim = await simulator({ now: Date.now });
  const far = await startStagingNetwork({ target: sim.url, latencyMs: [80, 140], seed: 3 });
  try {
    const took: number[] = [];
    for (let i = 0; i < 8; i++) {
      const sentAt = performance.now();
      const answer = await call(far.url, 'GET', '/api/v2/conversations?PageCount=1');
      took.push(performance.now() - sentAt);
      assert.equal(answer.status, 200);
    }
    assert.ok(Math.min(...took) >= 79, `no round trip under 80 ms: ${took.map(Math.round).join(', ')}`);
    assert.ok(Math.max(...took) - Math.min(...took) > 5, `drawn, not fixed: ${took.map(Math.round).join(', ')}`);
  } finally {
    await far.close();
    await sim.close();
  }
});
