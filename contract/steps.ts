// Steps shared by the lifecycle, error and probe tests. Each returns what it saw; tests decide what to assert.
import type { RequestBodies } from '../http/request-bodies.ts';
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

/** An operator message in the run's send body shape (spec §4.2); check bodies.missing('send') first. */
export const sendAsOperator = (api: ApiClient, bodies: RequestBodies, uuid: string, text: string) =>
  api.call('postV2ConversationSend', { path: { uuid }, json: bodies.send(text) });

/** Command goto in the run's command body shape (spec §4.2); check bodies.missing('command') first. */
export const gotoBot = (api: ApiClient, bodies: RequestBodies, uuid: string, botId: number) =>
  api.call('postV2ConversationCommand', { path: { uuid }, json: bodies.command(botId) });

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
