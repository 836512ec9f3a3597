import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureDetail, failureItem, withJournal } from './drift-failures.ts';
import { adoptLegacyIds, adoptLegacyItems } from './legacy-ids.ts';
import { failureId, type Failure, type RecordedFailure } from '../lib/failure.ts';

const TEST = '[api] v2/errors.spec.ts › postV2ConversationStart on a completed dialog answers as §3 and §5.3 allow';
const recorded = (f: Failure, test = TEST): RecordedFailure => ({ ...f, id: failureId(f), test });
const start = (uuid: string): Failure => ({
  check: 'status_code_conformance',
  severity: 'breaking',
  operationId: 'postV2ConversationStart',
  status: 204,
  pointer: 'status',
  expected: '403',
  section: '5.3',
  observed: '204',
  context: {
    because: `for completed dialog ${uuid}`,
    exchanges: [
      {
        request: { method: 'POST', path: `/api/v2/conversation/${uuid}/start`, credentials: 'configured' },
        response: { status: 204, contentType: null, body: '', bodyLength: 0 },
      },
    ],
  },
});

test("a failure's fingerprint item holds nothing of the run: two runs of one drift give one item", () => {
  const [a, b] = [start('a778429f-8a83-49fb-805a-91e6bc3a82b8'), start('0b0f6f2e-5d0c-4c3e-9a57-1f0d7c2b9e41')].map((f) => failureItem(recorded(f)));
  assert.deepEqual(a, b);
  assert.deepEqual(a, {
    id: 'contract.status_code_conformance postV2ConversationStart 204 status',
    section: '5.3',
    operation: 'POST /v2/conversation/{uuid}/start',
    item: 'status: expected 403',
    observed: '204',
    severity: 'breaking',
  });
});

test("a failure's entry shows why the expectation applies here, what was seen and the exchange, from its data", () => {
  const detail = failureDetail(recorded(start('a778429f-8a83-49fb-805a-91e6bc3a82b8')));
  assert.equal(detail.documented, '403 for completed dialog a778429f-8a83-49fb-805a-91e6bc3a82b8 (spec §5.3)');
  assert.equal(detail.observed, '204');
  assert.equal(
    detail.evidence,
    'check: status_code_conformance (breaking)\nrequest: POST /api/v2/conversation/a778429f-8a83-49fb-805a-91e6bc3a82b8/start\nresponse: 204 (no content type) (empty body)',
  );
  assert.equal(detail.test, TEST);
});

test('ids of suites before checks had names are read: matched to this run failures by operation, status and place', () => {
  const now = [
    recorded({ ...start('x'), check: 'ignored_auth', operationId: 'getV2Conversations', status: 200, expected: '401' }),
    recorded({ ...start('x'), check: 'effect_of_start', pointer: 'status of the dialog afterwards', expected: '"in-process"', observed: '"completed"' }),
    recorded({ ...start('x'), check: 'versions_agree', operationId: 'getV1Conversation', comparedWith: 'getV2Conversation', status: 200, pointer: '/status' }),
    recorded({ ...start('x'), check: 'test_passes', operationId: null, status: null, pointer: TEST }),
  ];
  const ack = (id: string) => ({ id, reason: 'known', ticket: 'https://t.example/1', acknowledgedBy: 'qa', until: '2099-01-01' });
  const { entries, renamed } = adoptLegacyIds(
    [
      ack('contract.GET /v2/conversations → 200 status'),
      // Old semantic checks named no status: any status of the same operation and place matches.
      ack('contract.POST /v2/conversation/{uuid}/start → - status of the dialog afterwards'),
      ack('contract.GET /v1/conversation/{id} vs GET /v2/conversation/{uuid} → - /status'),
      ack(`contract.test ${TEST}`),
      ack('contract.GET /v2/conversations → 200 /meta'),
      ack('status.operator'),
    ],
    now,
  );
  assert.deepEqual(
    entries.map((e) => e.id),
    [...now.map((f) => f.id), 'contract.GET /v2/conversations → 200 /meta', 'status.operator'],
  );
  assert.equal(renamed.length, 4);
  // In a baseline, an old failure without a match stays a failure: "fixed" when the run no longer sees it.
  const old = {
    id: 'contract.GET /v2/conversations → 200 /meta',
    section: '2.3',
    operation: 'GET /v2/conversations',
    item: '/meta: expected required property',
  };
  const items = adoptLegacyItems([{ ...old, observed: 'missing property' }], now);
  assert.equal(items[0]!.severity, 'breaking');
});

test("the journal's failure of an id a test found is that failure, its place named; a new id is added; places past ten are counted", () => {
  const live = recorded(start('6f1c'));
  const journal = (test: string) => ({ ...live, context: {}, test: `[journal] ${test}` });
  const other = recorded({ ...start('6f1c'), pointer: '/status' }, '[journal] POST /api/v2/conversation/x/start');
  const added = withJournal([live], [journal('POST /api/v2/conversation/a/start'), journal('POST /api/v2/conversation/a/start'), other]);
  assert.deepEqual(added, [other]);
  assert.deepEqual(live.context.alsoFoundAt, ['[journal] POST /api/v2/conversation/a/start']);
  withJournal(
    [live],
    Array.from({ length: 14 }, (_, i) => journal(`GET /api/v2/conversation/${i}`)),
  );
  assert.equal(live.context.alsoFoundAt!.length, 11);
  assert.equal(live.context.alsoFoundAt!.at(-1), 'and 5 more');
});
