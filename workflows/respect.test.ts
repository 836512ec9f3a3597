// What npm run respect hands Respect and how it reads Respect's result: the inputs in the run's shapes, a failed step
// named with its exchange, checks and documented expectation, a retried step judged by its last attempt, a target
// that did not answer or refused the configured credentials told apart from one that drifted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureLines, respectVerdict, stepDescriptions, workflowInputs, type RespectResult } from './respect.ts';

test("inputs carry the run's body shapes filled in, the window the run gives in the target's clock, and the unknown UUID", () => {
  const inputs = workflowInputs({
    botId: 11,
    gotoBotId: 12,
    sendTemplate: '{"message":{"text":"{{text}}"}}',
    commandTemplate: '{"type":"goto","botId":"{{botId}}"}',
    now: Date.parse('2026-11-24T10:00:30.250Z'),
    createdFrom: Date.parse('2026-11-24T09:59:00.900Z'),
    unknownUuid: '6f1c0000-0000-4000-8000-000000000000',
  });
  assert.deepEqual(inputs, {
    botId: 11,
    gotoBotId: 12,
    sendBody: { message: { text: 'dialog-contract respect workflow 2026-11-24T10:00:30Z' } },
    commandBody: { type: 'goto', botId: '12' },
    createdFrom: '2026-11-24T09:59:00Z',
    unknownUuid: '6f1c0000-0000-4000-8000-000000000000',
  });
});

const check = (
  name: string,
  passed: boolean,
  condition?: string,
  severity = 'error',
): { name: string; passed: boolean; severity: string; condition?: string; message?: string } => ({
  name,
  passed,
  severity,
  ...(condition ? { condition } : {}),
});
const step = (workflowId: string, stepId: string, statusCode: number, checks: ReturnType<typeof check>[], body?: unknown) => ({
  stepId,
  workflowId,
  request: { method: 'get', url: `http://127.0.0.1:4010/api/v2/conversation/${stepId}` },
  response: { statusCode, ...(body === undefined ? {} : { body }) },
  checks,
});
const result = (steps: ReturnType<typeof step>[]): RespectResult => ({
  status: 'error',
  files: {
    'workflows/dialog-lifecycle.arazzo.yaml': {
      totalRequests: steps.length,
      executedWorkflows: [{ workflowId: 'lifecycle', status: 'error', executedSteps: steps }],
    },
  },
});
const descriptions = stepDescriptions({
  workflows: [{ workflowId: 'lifecycle', steps: [{ stepId: 'readAfterStop', description: 'The dialog is in the operator\n  state (§4.2 stop, §3).' }] }],
});

test('a failed step is named with its exchange, its failed checks and what the workflow documents; the dialog and its cleanup are reported', () => {
  const verdict = respectVerdict(
    result([
      step('lifecycle', 'create', 200, [check('success criteria check', true, '$statusCode == 200')], { dialogId: '1f22e17c-a113-47f2-a2ee-4bade2bab52d' }),
      step('lifecycle', 'readAfterStop', 200, [
        check('success criteria check', true, '$statusCode == 200'),
        check('success criteria check', false, "$response.body#/status != 'in-process'"),
        check('status code check', false, undefined, 'off'),
      ]),
      step('lifecycle', 'listedUnderTarget', 200, [{ ...check('schema check', false), message: "\nREQUIRED must have required property 'links'\n\n> 1 | {" }]),
      step('lifecycle', 'cleanup', 204, []),
    ]),
    descriptions,
  );
  assert.deepEqual(failureLines(verdict), [
    "lifecycle/readAfterStop: GET /api/v2/conversation/readAfterStop → 200: success criteria check: $response.body#/status != 'in-process' (documented: The dialog is in the operator state (§4.2 stop, §3).)",
    "lifecycle/listedUnderTarget: GET /api/v2/conversation/listedUnderTarget → 200: schema check: REQUIRED must have required property 'links'",
  ]);
  assert.deepEqual([verdict.workflows, verdict.steps, verdict.requests, verdict.unjudged], [1, 4, 4, []]);
  assert.deepEqual(verdict.created, { uuid: '1f22e17c-a113-47f2-a2ee-4bade2bab52d', cleanupStatus: 204 });
});

test('a step retried after a 429 is judged by its last attempt', () => {
  const throttled = step('lifecycle', 'start', 429, [check('success criteria check', false, '$statusCode == 204')]);
  const passed = step('lifecycle', 'start', 204, [check('success criteria check', true, '$statusCode == 204')]);
  assert.deepEqual(respectVerdict(result([throttled, passed]), {}).failures, []);
  assert.equal(respectVerdict(result([passed, throttled]), {}).failures.length, 1);
});

test('no answer, or the configured credentials refused, is a run that could not judge; a 401 the credentials workflow asks for is not', () => {
  const silent = respectVerdict(result([step('lifecycle', 'create', 0, [check('failed network request', false)])]), {});
  assert.deepEqual([silent.failures, silent.unjudged], [[], ['lifecycle/create: failed network request']]);
  const refused = respectVerdict(result([step('lifecycle', 'create', 401, [check('success criteria check', false, '$statusCode == 200')])]), {});
  assert.deepEqual(refused.failures, []);
  assert.match(refused.unjudged[0]!, /configured credentials were refused \(401\): check API_LOGIN and API_PASSWORD/);
  const asked = respectVerdict(result([step('credentials', 'wrongPasswordV2', 401, [check('success criteria check', true, '$statusCode == 401')])]), {});
  assert.deepEqual([asked.failures, asked.unjudged], [[], []]);
});
