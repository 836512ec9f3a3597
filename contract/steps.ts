// Steps shared by the lifecycle, error and probe tests. Each returns what it saw; tests decide what to assert.
import { commandBodyCandidates, describeCandidate, sendBodyCandidates } from '../fixtures/body-candidates.ts';
import type { ApiClient, ApiResponse } from './client.ts';
import { historyQuery, listedItems, type ListItem } from './lists.ts';

export interface DialogRecord extends ListItem {
  data: Array<{ question: string; type: string; answer: string; variable: string | null; deleted?: boolean }>;
}

export async function readV2(api: ApiClient, uuid: string): Promise<{ response: ApiResponse; record: DialogRecord | undefined }> {
  const response = await api.call('getV2Conversation', { path: { uuid } });
  return { response, record: response.status === 200 ? response.json<DialogRecord>() : undefined };
}

export async function readV1(api: ApiClient, id: number): Promise<{ response: ApiResponse; record: DialogRecord | undefined }> {
  const response = await api.call('getV1Conversation', { path: { id } });
  return { response, record: response.status === 200 ? response.json<DialogRecord>() : undefined };
}

export interface CandidateOutcome {
  response: ApiResponse;
  /** The body shape the target accepted (field names with value types), if one was. */
  accepted?: string;
  tried: Array<{ body: string; status: number }>;
}

/**
 * Posts candidate bodies in order until one is not a 400: the spec does not name the fields (§4.2), so a 400 on a
 * candidate says "not this shape", while any other status is the target's answer to the request itself.
 */
async function firstAccepted(api: ApiClient, operationId: string, uuid: string, bodies: Array<Record<string, unknown>>): Promise<CandidateOutcome> {
  const tried: CandidateOutcome['tried'] = [];
  let response: ApiResponse | undefined;
  for (const body of bodies) {
    response = await api.call(operationId, { path: { uuid }, json: body });
    tried.push({ body: describeCandidate(body), status: response.status });
    if (response.status !== 400) {
      return { response, tried, ...(response.status < 300 ? { accepted: describeCandidate(body) } : {}) };
    }
  }
  return { response: response!, tried };
}

export const sendAsOperator = (api: ApiClient, uuid: string, text: string) =>
  firstAccepted(api, 'postV2ConversationSend', uuid, sendBodyCandidates(text));

export const gotoBot = (api: ApiClient, uuid: string, botId: number) =>
  firstAccepted(api, 'postV2ConversationCommand', uuid, commandBodyCandidates(botId));

export const startDialog = (api: ApiClient, uuid: string) => api.call('postV2ConversationStart', { path: { uuid } });
export const stopDialog = (api: ApiClient, uuid: string) => api.call('postV2ConversationStop', { path: { uuid } });

/**
 * A file id to download: FILE_ID when configured, else the first /file/{id} link found in the data of the bot's
 * dialogs (answers may be links to uploaded files, spec §2.2). At most one list page and 40 reads.
 */
export async function discoverFileId(api: ApiClient, configured: number | undefined, botId: number): Promise<number | undefined> {
  if (configured !== undefined) return configured;
  // Dialogs from before the run: the run's own new dialogs carry no files and would fill the first page.
  const list = await api.call('getV2Conversations', { query: { ...historyQuery(botId), PageCount: 40 } });
  for (const item of listedItems(list)) {
    const { record } = await readV2(api, String(item.id));
    for (const entry of record?.data ?? []) {
      if (entry.deleted === true) continue; // a deleted upload has nothing to download
      const match = /\/file\/(\d+)/.exec(entry.answer);
      if (match) return Number(match[1]);
    }
  }
  return undefined;
}
