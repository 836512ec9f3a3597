// Dialogs a run created and did not get to stop: a cancelled run (CI's SIGTERM, Ctrl-C) or one whose workers were
// killed. Every dialog is journalled the moment its create answers (the run's journal), every cleanup is a line
// of reports/created-dialogs.jsonl; what is journalled and not cleaned is stopped here by the main command, after
// Playwright is gone, within a bounded time, and listed like the others.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { basicAuthorization, type SuiteConfig } from '../../config/suite-config.ts';
import { requestUrl } from '../../http/request.ts';
import { OPERATIONS } from '../../openapi/operations.generated.ts';
import { appendJsonl } from '../core/run-records.ts';
import { journal, readJournal, type JournalledDialog } from '../core/journal.ts';

export const CREATED_DIALOGS_FILE = 'created-dialogs.jsonl';

/** The journal record of a dialog just created. */
export function journalCreated(reportsDir: string, dialog: JournalledDialog): void {
  journal(reportsDir, 'created', { runId: process.env.RUN_ID, ...dialog });
}

/** Every dialog the run's processes journalled so far. */
export const readCreated = (reportsDir: string): JournalledDialog[] => readJournal(reportsDir, 'created');

/** Journalled dialogs with no cleanup the target answered (no line, or a stop lost or failed with a 5xx): pure. */
export function leftOver(journal: readonly JournalledDialog[], cleaned: readonly { uuid?: string; cleanupStatus?: number }[]): JournalledDialog[] {
  const answered = (status: number | undefined) => status !== undefined && status > 0 && status < 500;
  const done = new Set(cleaned.filter((c) => answered(c.cleanupStatus)).map((c) => c.uuid));
  const seen = new Set<string>();
  return journal.filter((d) => !done.has(d.uuid) && !seen.has(d.uuid) && seen.add(d.uuid));
}

function cleanedLines(reportsDir: string): { uuid?: string; cleanupStatus?: number }[] {
  const file = join(reportsDir, CREATED_DIALOGS_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { uuid?: string; cleanupStatus?: number });
}

/**
 * Stops each dialog left over (POST /v2/conversation/{uuid}/stop, the cleanup the tests do) and lists it with the
 * status of its stop (0: no answer within the budget). Returns how many were left and how many stopped (2xx).
 */
export async function stopLeftOverDialogs(
  config: Pick<SuiteConfig, 'baseUrl' | 'login' | 'password'>,
  reportsDir: string,
  budgetMs = 4000,
): Promise<{ left: number; stopped: number }> {
  const left = leftOver(readCreated(reportsDir), cleanedLines(reportsDir));
  const deadline = Date.now() + budgetMs;
  const stop = { operationId: 'postV2ConversationStop' as const, basicAuth: true, ...OPERATIONS.postV2ConversationStop };
  const statuses = await Promise.all(
    left.map(async (dialog) => {
      const url = requestUrl(config.baseUrl, stop, { operationId: 'postV2ConversationStop', pathParams: { uuid: dialog.uuid } });
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { authorization: basicAuthorization(config.login, config.password) },
          signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        });
        await res.arrayBuffer();
        return res.status;
      } catch {
        return 0;
      }
    }),
  );
  for (const [i, dialog] of left.entries()) {
    appendJsonl(join(reportsDir, CREATED_DIALOGS_FILE), { ...dialog, cleanupStatus: statuses[i], cleanedUpBy: 'the main command, after the run was stopped' });
  }
  return { left: left.length, stopped: statuses.filter((s) => s !== undefined && s >= 200 && s < 300).length };
}
