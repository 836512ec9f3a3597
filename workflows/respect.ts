// What `npm run respect` hands Redocly Respect and what it reads back, pure: the workflow's inputs from the run's
// configuration and body shapes, and Respect's JSON result (--json-output) turned into a verdict whose failures name
// the step, the operation, the check and what the workflow documents about the step (its spec sections).
import { renderBody } from '../http/body-template.ts';

/** The workflow's inputs (components.inputs.run of dialog-lifecycle.arazzo.yaml); the credentials come from the environment. */
export interface WorkflowInputs {
  botId: number;
  gotoBotId: number;
  sendBody: Record<string, unknown>;
  commandBody: Record<string, unknown>;
  createdFrom: string;
  unknownUuid: string;
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** `createdFrom`: the run's start in the target's clock, at the early end of what it may be (contract/clock/vendor-clock.ts). */
export function workflowInputs(o: {
  botId: number;
  gotoBotId: number;
  sendTemplate: string;
  commandTemplate: string;
  now: number;
  createdFrom: number;
  unknownUuid: string;
}): WorkflowInputs {
  return {
    botId: o.botId,
    gotoBotId: o.gotoBotId,
    sendBody: renderBody(o.sendTemplate, { text: `dialog-contract respect workflow ${isoSeconds(o.now)}` }),
    commandBody: renderBody(o.commandTemplate, { botId: o.gotoBotId }),
    createdFrom: isoSeconds(o.createdFrom),
    unknownUuid: o.unknownUuid,
  };
}

/** The parts of Respect's JSON result (`redocly respect --json-output`) read here. */
export interface RespectResult {
  status: string;
  files: Record<string, { totalRequests: number; executedWorkflows: RespectWorkflow[] }>;
}

interface RespectWorkflow {
  workflowId: string;
  status: string;
  executedSteps: Array<RespectStep | RespectWorkflow>;
}

interface RespectStep {
  stepId: string;
  workflowId: string;
  request: { method: string; url: string };
  response: { statusCode: number; body?: unknown };
  checks: Array<{ name: string; passed: boolean; severity: string; condition?: string; message?: string }>;
}

/** The workflow that sends wrong and missing credentials on purpose. */
const CREDENTIALS_WORKFLOW = 'credentials';

/** Checks that say the run could not judge the target (it did not answer, or Respect stopped), not that it drifted. */
const UNJUDGED = new Set(['failed network request', 'global timeout error', 'maximum steps reached']);

export interface StepFailure {
  workflowId: string;
  stepId: string;
  /** "GET /api/v2/conversation/… → 200", or "→ no answer". */
  exchange: string;
  /** Each failed check: its name and condition. */
  checks: string[];
  /** What the workflow documents about the step (its description, with the spec sections). */
  documented: string | undefined;
}

export interface RespectVerdict {
  workflows: number;
  steps: number;
  requests: number;
  failures: StepFailure[];
  /** Why the run could not judge the target, when it could not. */
  unjudged: string[];
  /** The dialog the lifecycle created and the status its final stop answered (null: it did not get there). */
  created: { uuid: string; cleanupStatus: number | null } | undefined;
}

/** Step descriptions by "workflowId/stepId", from the Arazzo document. */
export type StepDescriptions = Record<string, string>;

export function stepDescriptions(document: {
  workflows?: Array<{ workflowId: string; steps?: Array<{ stepId: string; description?: string }> }>;
}): StepDescriptions {
  const out: StepDescriptions = {};
  for (const w of document.workflows ?? [])
    for (const s of w.steps ?? []) if (s.description) out[`${w.workflowId}/${s.stepId}`] = s.description.replace(/\s+/g, ' ').trim();
  return out;
}

/** An ANSI colour code: ESC [ … m. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC that opens an ANSI colour code is the point
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** Respect's messages may open with a blank line or a colour code. */
const firstLine = (message: string | undefined) =>
  message
    ?.replace(ANSI_COLOUR, '')
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);

const isStep = (s: RespectStep | RespectWorkflow): s is RespectStep => 'stepId' in s;

function stepsOf(workflow: RespectWorkflow): RespectStep[] {
  return workflow.executedSteps.flatMap((s) => (isStep(s) ? [s] : stepsOf(s)));
}

export function respectVerdict(result: RespectResult, descriptions: StepDescriptions): RespectVerdict {
  const files = Object.values(result.files);
  const workflows = files.flatMap((f) => f.executedWorkflows);
  // A step retried (a 429 waited out, a list read again) appears once per attempt: the last attempt is its outcome.
  const last = new Map<string, RespectStep>();
  for (const step of workflows.flatMap(stepsOf)) last.set(`${step.workflowId}/${step.stepId}`, step);
  const failures: StepFailure[] = [];
  const unjudged: string[] = [];
  for (const [key, step] of last) {
    const failed = step.checks.filter((c) => !c.passed && c.severity === 'error');
    if (failed.length === 0) continue;
    const judged = failed.filter((c) => !UNJUDGED.has(c.name));
    // Outside the credentials workflow every request carries the configured credentials: a 401 refuses them.
    if (step.response.statusCode === 401 && step.workflowId !== CREDENTIALS_WORKFLOW) {
      unjudged.push(`${key}: the configured credentials were refused (401): check API_LOGIN and API_PASSWORD`);
      continue;
    }
    if (judged.length === 0) {
      unjudged.push(`${key}: ${failed.map((c) => `${c.name}${firstLine(c.message) ? ` (${firstLine(c.message)})` : ''}`).join('; ')}`);
      continue;
    }
    const path = step.request.url.replace(/^https?:\/\/[^/]+/, '');
    failures.push({
      workflowId: step.workflowId,
      stepId: step.stepId,
      exchange: `${step.request.method.toUpperCase()} ${path} → ${step.response.statusCode || 'no answer'}`,
      checks: judged.map((c) => (c.condition ? `${c.name}: ${c.condition}` : `${c.name}${firstLine(c.message) ? `: ${firstLine(c.message)}` : ''}`)),
      documented: descriptions[key],
    });
  }
  const create = last.get('lifecycle/create');
  const uuid = (create?.response.body as { dialogId?: unknown } | undefined)?.dialogId;
  return {
    workflows: workflows.length,
    steps: last.size,
    requests: files.reduce((n, f) => n + f.totalRequests, 0),
    failures,
    unjudged,
    created: typeof uuid === 'string' ? { uuid, cleanupStatus: last.get('lifecycle/cleanup')?.response.statusCode ?? null } : undefined,
  };
}

/** One line per failed step, ready for a ticket: the step, the exchange, the checks, what the workflow documents. */
export function failureLines(verdict: RespectVerdict): string[] {
  return verdict.failures.map(
    (f) => `${f.workflowId}/${f.stepId}: ${f.exchange}: ${f.checks.join('; ')}${f.documented ? ` (documented: ${f.documented})` : ''}`,
  );
}
