// Steps shared by the lifecycle, error and probe tests. Each returns what it saw; tests decide what to assert.
import type { SuiteConfig } from '../config/suite-config.ts';
import type { RequestBodies } from '../http/request-bodies.ts';
import type { ApiClient } from './client.ts';
import type { ApiResponse } from './api-response.ts';
import { sampleQuery, listedItems, type ListItem } from './lists.ts';

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
export async function discoverFileId(api: ApiClient, config: SuiteConfig): Promise<number | undefined> {
  if (config.fileId !== undefined) return config.fileId;
  // The sample window: the run's own new dialogs carry no files, and which file is found must not move between runs.
  const list = await api.call('getV2Conversations', { query: { ...sampleQuery(config, config.botId), PageCount: 40 } });
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

/** Fields of a dialog that activity moves: the last message's time, the duration, the status (spec §2.1, §3). */
const MOVING = new Set(['updated', 'duration', 'status']);

/**
 * Two reads of one dialog (V1 and V2, or a list item and its record) compared field by field. A field that activity
 * moves may differ only because the dialog moved between the reads: those are read again, up to `tries` times,
 * before a difference is called. Returns the fields that still differ, with the last reads.
 */
export async function settledDifferences<T extends Record<string, unknown>>(
  read: () => Promise<[T | undefined, T | undefined]>,
  fields: readonly string[],
  agree: (field: string, a: unknown, b: unknown) => boolean,
  tries = 3,
): Promise<{ differing: string[]; a: T | undefined; b: T | undefined }> {
  let [a, b] = await read();
  const differing = () => fields.filter((f) => !agree(f, a?.[f], b?.[f]));
  for (let n = 1; n < tries && differing().some((f) => MOVING.has(f)) && differing().every((f) => MOVING.has(f)); n++) [a, b] = await read();
  return { differing: differing(), a, b };
}

/** Same value, a time compared as the instant it names (two ISO renderings of one instant agree). */
export function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (field === 'updated' && typeof a === 'string' && typeof b === 'string' && a !== '' && b !== '') return Date.parse(a) === Date.parse(b);
  return JSON.stringify(a) === JSON.stringify(b);
}
