// Contract failures as the drift report and the fingerprint carry them. The suite's failure messages have one form
// ("OP → STATUS: LOCATION: expected X (spec §S), observed Y", then the request and response); this module reads
// them back into parts and strips what changes from run to run, so a failure keeps one id across runs.
import type { FingerprintItem } from './fingerprint.ts';

export const CONTRACT_PREFIX = 'contract.';

export interface ContractFailure {
  /** Stable: operation, status and location with run-dependent values replaced. */
  id: string;
  operation: string;
  status: number | null;
  location: string;
  expected: string;
  observed: string;
  section: string;
  /** "request: …\nresponse: …" when the message carried them. */
  evidence?: string;
  /** The test that failed ("[v2] file › title"). */
  test: string;
}

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');
const FINDING = /^(?<operation>.+?)(?: → (?<status>\d{3}))?: (?<location>.+?): expected (?<expected>.+) \(spec §(?<section>[\d.]+)\), observed (?<observed>.*)$/;

/**
 * Run-dependent values (UUIDs, times, large ids, list indexes) replaced by placeholders, so the same drift reads
 * the same in every run: "$[\"17\"].source" → "$[*].source", "dialog 5f0c…" → "dialog {uuid}".
 */
export function normaliseVolatile(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{uuid}')
    .replace(/\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g, '{time}')
    .replace(/\[(?:"\d+"|\d+)\]/g, '[*]')
    .replace(/\b\d{4,}\b/g, '{n}');
}

/** Every finding line of one failed test's error messages, with the evidence printed in the same message. */
export function parseFailures(test: string, messages: readonly string[]): ContractFailure[] {
  const out: ContractFailure[] = [];
  for (const message of messages) {
    const lines = message.replace(ANSI, '').split('\n').map((l) => l.trim().replace(/^Error:\s*/, ''));
    const request = lines.find((l) => l.startsWith('request: '));
    const response = lines.find((l) => l.startsWith('response: '));
    const evidence = request && response ? `${request}\n${response}` : undefined;
    for (const line of lines) {
      const m = FINDING.exec(line)?.groups;
      if (!m) continue;
      const status = m.status === undefined ? null : Number(m.status);
      out.push({
        id: `${CONTRACT_PREFIX}${m.operation} → ${status ?? '-'} ${normaliseVolatile(m.location!)}`,
        operation: m.operation!,
        status,
        location: m.location!,
        expected: m.expected!,
        observed: m.observed!,
        section: m.section!,
        ...(evidence ? { evidence } : {}),
        test,
      });
    }
  }
  return out;
}

/** A failure that is not in the suite's form (a timeout, a thrown error): still breaking, named by its test. */
export function unparsedFailure(test: string, messages: readonly string[]): ContractFailure {
  const first = messages.flatMap((m) => m.replace(ANSI, '').split('\n')).map((l) => l.trim().replace(/^Error:\s*/, '')).find(Boolean) ?? 'failed without a message';
  return { id: `${CONTRACT_PREFIX}test ${test}`, operation: '(test)', status: null, location: test, expected: 'the test to pass', observed: first, section: '-', test };
}

/** The failures of one test: its findings, or the test itself when none of its messages is a finding. */
export function failuresOf(test: string, messages: readonly string[]): ContractFailure[] {
  const parsed = parseFailures(test, messages);
  return parsed.length > 0 ? parsed : [unparsedFailure(test, messages)];
}

export function failureItem(f: ContractFailure): FingerprintItem {
  return {
    id: f.id,
    section: f.section,
    operation: f.operation,
    item: normaliseVolatile(`${f.location}: expected ${f.expected}`),
    observed: normaliseVolatile(f.observed),
  };
}
