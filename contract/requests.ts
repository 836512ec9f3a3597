// Every request the tests build, in one place: reads of a dialog, its lifecycle steps in the run's body shapes,
// the file to download, and a well-formed request per V1/V2 operation so auth and error tests vary one thing at a
// time. Send and command carry the run's own body shape (configured or discovered): a vendor that validates the body
// before it looks up the dialog must still see a body it accepts. Each returns what it saw; tests decide.
import type { SuiteConfig } from '../config/suite-config.ts';
import type { RequestBodies } from '../http/request-bodies.ts';
import type { ApiResponse } from './api-response.ts';
import type { ApiClient, CallOptions } from './client.ts';
import type { Dialog } from './dialog-factory.ts';
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

export interface RequestContext {
  config: SuiteConfig;
  bodies: RequestBodies;
  /** A dialog the test created, with its V1 id resolved. */
  dialog?: Dialog;
  fileId?: number;
}

/** Operations whose well-formed request needs a dialog of the test's own. */
export const NEEDS_DIALOG = new Set([
  'getV1Conversation',
  'getV2Conversation',
  'postV2ConversationStart',
  'postV2ConversationStop',
  'postV2ConversationSend',
  'postV2ConversationCommand',
]);

/** The body shape an operation's request needs (spec §4.2: not shown), if any. */
export function shapeOf(operationId: string): 'send' | 'command' | undefined {
  return operationId === 'postV2ConversationSend' ? 'send' : operationId === 'postV2ConversationCommand' ? 'command' : undefined;
}

export function wellFormedRequest(operationId: string, { config, bodies, dialog, fileId }: RequestContext): CallOptions {
  const uuid = dialog?.uuid ?? '';
  switch (operationId) {
    case 'getV1Conversations':
    case 'getV2Conversations':
      return { query: { BotID: config.botId, PageCount: 5 } };
    case 'getV1Conversation':
      return { path: { id: dialog?.v1Id ?? 0 } };
    case 'getV2Conversation':
    case 'postV2ConversationStart':
    case 'postV2ConversationStop':
      return { path: { uuid } };
    case 'getV1DialogCreate':
    case 'getV2DialogCreate':
      return { path: { BotID: config.botId } };
    case 'postV2DialogCreate':
      return { path: { BotID: config.botId }, json: { response: true } };
    case 'postV2ConversationSend':
      return { path: { uuid }, json: bodies.send('dialog-contract check') };
    case 'postV2ConversationCommand':
      return { path: { uuid }, json: bodies.command(config.gotoBotId) };
    case 'getV1File':
    case 'getV2File':
      return { path: { fileId: fileId ?? config.fileId ?? 1 } };
    default:
      throw new Error(`no well-formed request for ${operationId}`);
  }
}
