import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDriftReport } from './drift-report.ts';
import { ticketFileName, ticketFiles } from './tickets.ts';

const item = (id: string, observed: unknown) => ({ id, section: '3', operation: 'POST /v2/conversation/{uuid}/stop', item: `item ${id}`, observed });
/** A contract failure's item: its check made it breaking. */
const failed = (id: string, observed: unknown) => ({ ...item(id, observed), severity: 'breaking' as const });
const detail = (id: string) => ({
  documented: `documented ${id}`,
  test: '[v2] lifecycle',
  evidence: `request: POST /api/v2/conversation/x/stop\nresponse: 204 (no content type) (empty body)`,
});

test('one paste-ready ticket per breaking or changed item, acknowledged-and-expired included, none for the rest', () => {
  const failure = failed('contract.POST /v2/conversation/{uuid}/stop → - status of the dialog afterwards', '"in-process"');
  const expired = failed('contract.GET /v1/conversations → 200 /meta', 'missing property');
  const report = buildDriftReport(
    [failure, expired, item('status.operator', 'waiting-operator'), item('links.v2', {})],
    detail,
    { name: 'vendor-4.2', items: [item('status.operator', 'operator'), item('links.v2', {})] },
    [{ id: expired.id, reason: 'known', ticket: 'https://t.example/9', acknowledgedBy: 'qa', until: '2026-01-01' }],
    '2026-11-23',
  );
  const tickets = ticketFiles(report, (e) => (e.id === 'status.operator' ? '2026-11-20T05:00:00Z (baseline vendor-4.3)' : '2026-11-23T04:00:00Z (this run)'));
  assert.equal(tickets.length, 3);
  const operator = tickets.find((t) => t.name.startsWith('changed-status-operator-'))!;
  assert.match(operator.text, /^# \[Dialog Bot Service\] POST \/v2\/conversation\/\{uuid\}\/stop: item status\.operator\n/);
  for (const line of [
    '- Severity: changed (changed since baseline vendor-4.2)',
    '- Specification: §3',
    '- Expected: documented status.operator',
    '- Observed: waiting-operator',
    '- Baseline vendor-4.2: operator',
    '- First seen: 2026-11-20T05:00:00Z (baseline vendor-4.3)',
    'request: POST /api/v2/conversation/x/stop',
  ]) {
    assert.ok(operator.text.includes(line), `missing: ${line}`);
  }
  assert.match(tickets.find((t) => t.text.includes('/meta'))!.text, /- Acknowledged until 2026-01-01 \(EXPIRED\): https:\/\/t\.example\/9/);
  assert.notEqual(ticketFileName({ id: 'a b', severity: 'breaking' }), ticketFileName({ id: 'a-b', severity: 'breaking' }), 'names stay unique');
});

test('one root cause, one ticket: a field missing at several operations is one ticket that lists each place; another finding is its own', () => {
  const at = (id: string, operation: string, place: string) => ({
    id,
    section: '2.1',
    operation,
    item: `${place}: expected required property`,
    observed: 'missing property',
    severity: 'breaking' as const,
  });
  const record = at('contract.response_schema_conformance getV2Conversation 200 /source', 'GET /v2/conversation/{uuid}', '/source');
  const list = at('contract.response_schema_conformance getV2Conversations 200 /*/source', 'GET /v2/conversations', '/*/source');
  const other = { ...at('contract.response_schema_conformance getV2Conversations 200 /*/ip', 'GET /v2/conversations', '/*/ip'), observed: 'integer' };
  const report = buildDriftReport([record, list, other], detail);
  const tickets = ticketFiles(report, () => 'now');
  assert.equal(tickets.length, 2);
  const source = tickets.find((t) => t.ids.length === 2)!;
  assert.deepEqual(source.ids.sort(), [list.id, record.id].sort());
  assert.equal(source.headline, '[Dialog Bot Service] GET /v2/conversation/{uuid}, GET /v2/conversations: source: expected required property');
  assert.match(source.text, /^# \[Dialog Bot Service\] GET \/v2\/conversation\/\{uuid\}, GET \/v2\/conversations: source: expected required property\n/);
  assert.match(
    source.text,
    /- Seen at 2 places \(one cause, one ticket\):\n {2}- GET \/v2\/conversation\/\{uuid\}: `\/source: expected required property`.*\n {2}- GET \/v2\/conversations: `\/\*\/source/,
  );
  // The drift report's entries keep their ids, each with the one ticket.
  const entries = report.entries.filter((e) => e.cause);
  assert.equal(entries.length, 2);
  assert.equal(entries[0]!.ticket, entries[1]!.ticket);
  assert.match(entries[0]!.ticket, /Seen at 2 places/);
});
