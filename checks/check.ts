// What a check is, and the registry that names them. A check is a pure function with one job: it takes the evidence
// a test gathered (or a recording held) and returns its findings, each holding or not, with the stable place, what the
// spec asks and what was seen: data, made into a failure (lib/failure.ts) by whoever holds the answers. Every check
// declares its name, the spec sections it holds, its severity, a one-line statement and the kind of evidence it
// judges, so the registry can list, select and count them. A team's own checks (CHECKS_MODULE) are made with the
// same `defineCheck` and join the same registry. Pure: no Node built-in, no I/O.
import type { Failure, FailureExchange, FailureSeverity } from '../lib/failure.ts';
import type { Json } from '../lib/json.ts';
import type { OperationId } from '../openapi/operations.generated.ts';

/**
 * How much a failure of the check matters, on Schemathesis' scale: critical for a server error and ignored
 * credentials, high for what breaks a documented item (a schema, a status, an effect, an identifier), medium for
 * what a client can usually live with (a content type, a field's words), low for what only the run's own bookkeeping
 * tells. The drift report's classes (breaking against the spec, learned against a baseline) are apart from it.
 */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** What a check judges, in the words --list-checks prints. */
export const EVIDENCE = {
  exchange: 'one exchange',
  dialog: 'the exchanges of one dialog over time',
  walk: 'a walk of the pages of one query',
  write: 'a write and the reads after it',
  series: 'a series of answers of one kind (creates, the messages of one custom block, downloads of one file)',
  run: 'the run',
} as const;
export type EvidenceKind = keyof typeof EVIDENCE;

/** One thing a check looked at: whether it holds, where, what the spec asks and what was seen (no value of the run). */
export interface Finding {
  /** The stable place: a JSON pointer with list positions as "*", "status", "body", or a named place. */
  at: string;
  holds: boolean;
  /** What the spec asks, with no value of the run. */
  expected: string;
  /** What was seen, in words that hold still from run to run. */
  observed: string;
  /** The section of this finding when it is not the check's first. */
  section?: string;
  /** The place with the run's values, as a reader wants it. */
  location?: string;
  /** Why the expectation applies here, with the run's values ("for unknown dialog 6f1c…"). */
  because?: string;
  /** The value seen in full, where `observed` names only its kind. */
  value?: Json;
  /** Values of the run that explain it. */
  details?: Record<string, Json>;
}

export interface Check<I = never, N extends string = string> {
  /**
   * Unique; Schemathesis' name where one exists. A name with a dot belongs to the family before it
   * ("pagination_conformance.pages_disjoint"): failures are filed under the family, so ids stay those of the family.
   */
  readonly name: N;
  /** The spec sections it holds, the first the default of its findings. */
  readonly sections: readonly string[];
  readonly severity: Severity;
  /** What it asserts, in one line. */
  readonly statement: string;
  readonly evidence: EvidenceKind;
  /** The places its findings name; omitted: JSON pointers into the answer. The meaning audit ties drifts to them. */
  readonly places?: readonly string[];
  judge(input: I): Finding[];
}

/** A check of any input, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds checks of every input; each call site is typed by its check.
export type AnyCheck = Check<any>;

/** A check, typed by its input: what the project and a team's module (CHECKS_MODULE) both make checks with. */
export const defineCheck = <I, const N extends string>(check: Check<I, N>): Check<I, N> => check;

/** The family a check's failures are filed under: its name up to the first dot. */
export const familyOf = (name: string): string => name.split('.')[0]!;

/** A bad selection or a bad team module: one line, the command exits 2. */
export class CheckRegistryError extends Error {
  override name = 'CheckRegistryError';
}

/** Which checks a run makes: all, those named (names or families), less those excluded. */
export interface CheckSelection {
  checks?: readonly string[];
  exclude?: readonly string[];
}

const NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** The checks a run knows: the project's and a team's, each by its name, and which of them the run makes. */
export class CheckRegistry {
  private readonly byName = new Map<string, AnyCheck>();
  private readonly selected: Set<string>;

  constructor(checks: readonly AnyCheck[], selection: CheckSelection = {}) {
    for (const check of checks) this.add(check);
    const names = [...this.byName.keys()];
    const pick = (wanted: readonly string[], what: string) => {
      const unknown = wanted.filter((w) => !names.some((n) => n === w || familyOf(n) === w));
      if (unknown.length) throw new CheckRegistryError(`${what} names no check: ${unknown.join(', ')} (npm run contract -- --list-checks lists them)`);
      return new Set(names.filter((n) => wanted.some((w) => n === w || familyOf(n) === w)));
    };
    const chosen = selection.checks?.length ? pick(selection.checks, '--checks') : new Set(names);
    const excluded = selection.exclude?.length ? pick(selection.exclude, '--exclude-checks') : new Set<string>();
    this.selected = new Set([...chosen].filter((n) => !excluded.has(n)));
  }

  private add(check: AnyCheck): void {
    const problem = checkProblem(check);
    if (problem) throw new CheckRegistryError(problem);
    if (this.byName.has(check.name)) throw new CheckRegistryError(`two checks are named ${check.name}`);
    this.byName.set(check.name, check);
  }

  /** Every check, in the order they were given. */
  all(): AnyCheck[] {
    return [...this.byName.values()];
  }

  get(name: string): AnyCheck {
    const check = this.byName.get(name);
    if (!check) throw new CheckRegistryError(`no check named ${name}`);
    return check;
  }

  /** Whether the run makes this check. */
  runs(name: string): boolean {
    return this.selected.has(name);
  }

  /** The checks left out of the run (--checks, --exclude-checks). */
  notRun(): AnyCheck[] {
    return this.all().filter((c) => !this.selected.has(c.name));
  }
}

/** What is wrong with something offered as a check (a team module's export), or undefined. */
export function checkProblem(value: unknown): string | undefined {
  const c = value as Partial<AnyCheck> | null;
  if (!c || typeof c !== 'object') return 'a check must be an object made with defineCheck';
  const name = typeof c.name === 'string' ? c.name : '(unnamed)';
  if (!NAME.test(name)) return `check ${name}: its name must be lower_snake_case words, dot-separated ("acme.name_has_city")`;
  if (typeof c.judge !== 'function') return `check ${name}: judge must be a function`;
  if (!Array.isArray(c.sections) || c.sections.length === 0) return `check ${name}: sections must name at least one spec section`;
  if (!SEVERITIES.includes(c.severity as Severity)) return `check ${name}: severity must be one of ${SEVERITIES.join(', ')}`;
  if (typeof c.statement !== 'string' || c.statement === '') return `check ${name}: statement must say in one line what it asserts`;
  if (!(c.evidence && c.evidence in EVIDENCE)) return `check ${name}: evidence must be one of ${Object.keys(EVIDENCE).join(', ')}`;
  return undefined;
}

/** The registry as --list-checks prints it: one block per check. */
export function listChecks(registry: CheckRegistry): string {
  return registry
    .all()
    .map((c) => {
      const run = registry.runs(c.name) ? '' : ' (not run: left out by --checks/--exclude-checks)';
      return `${c.name}${run}\n  §${c.sections.join(', §')} · ${c.severity} · ${EVIDENCE[c.evidence as EvidenceKind]}\n  ${c.statement}`;
    })
    .join('\n');
}

/** What a failure is raised at: the answer judged, and any other that shows it. */
export interface JudgedAt {
  operationId: OperationId | null;
  status: number | null;
  /** A comparison of two operations (V1 against V2): the other operation. */
  comparedWith?: OperationId;
  exchanges?: FailureExchange[];
  /** Values of the run the test adds to the finding's own. */
  details?: Record<string, Json>;
  /** The place with the run's values, where the test knows it better than the check. */
  location?: string;
  severity?: FailureSeverity;
}

/** A finding that does not hold, as a failure of its check at the answer judged. */
export function failureOf(check: Pick<AnyCheck, 'name' | 'sections'>, f: Finding, at: JudgedAt): Failure {
  const details = { ...(f.details ?? {}), ...(at.details ?? {}) };
  const location = at.location ?? f.location;
  return {
    check: check.name,
    severity: at.severity ?? 'breaking',
    operationId: at.operationId,
    ...(at.comparedWith ? { comparedWith: at.comparedWith } : {}),
    status: at.status,
    pointer: f.at,
    expected: f.expected,
    section: f.section ?? check.sections[0]!,
    observed: f.observed,
    context: {
      ...(location ? { location } : {}),
      ...(f.because ? { because: f.because } : {}),
      ...(f.value === undefined ? {} : { value: f.value }),
      ...(Object.keys(details).length ? { details } : {}),
      ...(at.exchanges ? { exchanges: at.exchanges } : {}),
    },
  };
}

/** The failures of a check's findings that do not hold. */
export const failuresOf = (check: Pick<AnyCheck, 'name' | 'sections'>, findings: readonly Finding[], at: JudgedAt): Failure[] =>
  findings.filter((f) => !f.holds).map((f) => failureOf(check, f, at));
