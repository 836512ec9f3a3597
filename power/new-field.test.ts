// Adding a drift to a new field needs no edit outside its check. The document gains a field (its check is the
// response schema) and a vendor drops it: the failure names the check, the operation, the status and the field; the
// fingerprint, the drift report, its ticket and the mutation score follow from that data alone, with no table, id
// prefix, message or parser to extend. A new semantic check is the same: its failure carries everything.
import { responseFailures } from '../checks/response.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadDocument, type Document } from '../openapi/document.ts';
import { ContractValidators } from '../openapi/validators.ts';
import { failureId, renderHeadline, type Failure, type RecordedFailure } from '../lib/failure.ts';
import { failureDetail, failureItem } from '../report/drift-failures.ts';
import { buildDriftReport } from '../report/drift-report.ts';
import { samples } from '../fixtures/spec-samples.ts';
import { scoreMutations, type SuiteRun } from './mutation-score.ts';
import type { DriftDeclaration } from '../lib/drift-declaration.ts';

/** The project's document with one more required field on V2 records (the only edit: the check's own schema). */
function withPriority(): Document {
  const doc = structuredClone(loadDocument());
  const record = doc.components!.schemas!.V2ConversationRecord as { allOf: unknown[] };
  record.allOf.push({ type: 'object', required: ['priority'], properties: { priority: { type: 'integer', 'x-spec-section': '2.2' } } });
  return doc;
}

/** A run that recorded these failures, scored against the drift that caused them. */
function score(failures: RecordedFailure[], drift: DriftDeclaration) {
  const run: SuiteRun = { failed: [], passed: 1, skipped: 0, seconds: 1, failures };
  return scoreMutations({ failed: [], passed: 1, skipped: 0, seconds: 1, failures: [], reported: { changes: [] } }, [{ drift, run }]);
}

/** Every place a failure goes: its fingerprint item, its drift report entry and ticket, the mutation score. */
function followThrough(failure: Failure, drift: DriftDeclaration) {
  const recorded = { ...failure, id: failureId(failure), test: '[api] a test' };
  const report = buildDriftReport([failureItem(recorded)], () => failureDetail(recorded));
  return { recorded, entry: report.entries[0]!, result: score([recorded], drift) };
}

test('a drift at a field the document gains is caught, named, reported and scored from its failure alone', () => {
  const validators = new ContractValidators(withPriority());
  const vendor = { ...samples.getV2Conversation, priority: undefined };
  const [failure, ...others] = responseFailures(validators, 'getV2Conversation', {
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify(vendor),
  });
  assert.equal(others.length, 0);
  assert.equal(renderHeadline(failure!), 'GET /v2/conversation/{uuid} → 200: $.priority: expected required property (spec §2.2), observed missing property');

  const drift: DriftDeclaration = {
    name: 'priority-removed',
    kind: 'breaking',
    clause: '§2.2 priority',
    description: 'records lose priority',
    breaks: [{ operations: ['getV2Conversation'], at: ['/priority'] }],
  };
  const { recorded, entry, result } = followThrough(failure!, drift);
  assert.equal(recorded.id, 'contract.response_schema_conformance getV2Conversation 200 /priority');
  assert.deepEqual(
    [entry.severity, entry.operation, entry.item, entry.observed],
    ['breaking', 'GET /v2/conversation/{uuid}', '/priority: expected required property', 'missing property'],
  );
  assert.match(entry.ticket, /Documented: required property \(spec §2\.2\)/);
  assert.equal(result.rows[1]!.verdict, 'detected');
});

test('a new semantic check needs only its failure: name, place and expectation flow the same way', () => {
  const failure: Failure = {
    check: 'effect_of_goto',
    severity: 'breaking',
    operationId: 'postV2ConversationCommand',
    status: 204,
    pointer: 'variables of the dialog afterwards',
    expected: 'the variables the dialog had on its first bot',
    section: '4.2',
    observed: '"none"',
    context: { details: { dialog: '6f1c2d2e-1b7a-4c1e-9a57-0d3b1c2e4f60' } },
  };
  const drift: DriftDeclaration = {
    name: 'goto-drops-variables',
    kind: 'breaking',
    clause: '§4.2 command goto',
    description: 'goto loses the variables',
    breaks: [{ operations: ['postV2ConversationCommand'], at: ['variables of the dialog afterwards'] }],
  };
  const { entry, result } = followThrough(failure, drift);
  assert.deepEqual([entry.severity, entry.item], ['breaking', 'variables of the dialog afterwards: expected the variables the dialog had on its first bot']);
  assert.match(entry.evidence ?? '', /check: effect_of_goto \(breaking\); dialog 6f1c2d2e/);
  assert.equal(result.rows[1]!.verdict, 'detected');
});
