// The meaning audit (openapi/meaning-audit.yaml) as data: its entries (a field or parameter of the document, a row of
// §3, a clause of the specification), the checks each names at an operation and place with the drift that check
// catches there, and the checks no drift can show, with why. Read by its tests and by the mutation run, which proves
// each named drift is caught by its check.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** A check an entry names: where it judges the words, and the drift of the simulator it catches there. */
export interface AuditedCheck {
  operation: string;
  at: string;
  check: string;
  drift?: string;
}

export interface AuditEntry {
  field?: string;
  row?: string;
  clause?: string;
  section?: string;
  words?: string;
  invariant?: string;
  why?: string;
  checks?: AuditedCheck[];
}

export interface Audit {
  fields: AuditEntry[];
  rows: AuditEntry[];
  clauses: AuditEntry[];
  undriftable: Array<{ check: string; why?: string }>;
}

export function readAudit(): Audit {
  const audit = parse(readFileSync(new URL('../openapi/meaning-audit.yaml', import.meta.url), 'utf8')) as Partial<Audit>;
  return { fields: audit.fields ?? [], rows: audit.rows ?? [], clauses: audit.clauses ?? [], undriftable: audit.undriftable ?? [] };
}

/** Every check every entry names, with its place and drift. */
export const auditedChecks = (audit: Pick<Audit, 'fields' | 'rows' | 'clauses'>): AuditedCheck[] =>
  [...audit.fields, ...audit.rows, ...audit.clauses].flatMap((e) => e.checks ?? []);
