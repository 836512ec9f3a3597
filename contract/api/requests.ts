// Every request the tests build, in one place: reads of a dialog, its lifecycle steps in the run's body shapes,
// the file to download, and a well-formed request of any operation, built from the document, so auth and error tests
// vary one thing at a time. Send and command carry the run's own body shape (configured or discovered): a vendor that validates the body
// before it looks up the dialog must still see a body it accepts. Each returns what it saw; tests decide.
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SuiteConfig } from '../../config/suite-config.ts';
import type { RequestBodies } from '../../http/request-bodies.ts';
import type { RequestShapes } from '../../http/body-discovery.ts';
import type { OperationId } from '../../openapi/operations.generated.ts';
import { contractValidators } from '../../openapi/validators.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { ApiClient, CallOptions } from '../target/client.ts';
import { sampleQuery, listedItems, searchPageCount, type ListItem } from './lists.ts';

export interface DialogRecord extends ListItem {
  data: Array<{ question: string; type: string; answer: string; variable: string | null; deleted?: boolean }>;
}

/** A read of one dialog: the answer, and the record when it answered 200. */
export interface DialogRead {
  response: ApiResponse;
  record: DialogRecord | undefined;
}

export async function readV2(api: ApiClient, uuid: string): Promise<DialogRead> {
  const response = await api.call('getV2Conversation', { path: { uuid } });
  return { response, record: response.status === 200 ? response.json<DialogRecord>() : undefined };
}

export async function readV1(api: ApiClient, id: number): Promise<DialogRead> {
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
  const list = await api.call('getV2Conversations', { query: { ...sampleQuery(config, config.botId), PageCount: searchPageCount() } });
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

type ParameterObject = OpenAPIV3_1.ParameterObject;

export interface RequestContext {
  config: SuiteConfig;
  bodies: RequestBodies;
  /** A dialog the test created, with its V1 id resolved. */
  dialog?: { uuid: string; v1Id?: number };
  fileId?: number;
}

/** What a parameter's value names, as the document marks it (x-identifies). */
export function identifies(parameter: ParameterObject): 'dialog' | 'bot' | 'file' | undefined {
  const value: unknown = Reflect.get(parameter, 'x-identifies');
  return value === 'dialog' || value === 'bot' || value === 'file' ? value : undefined;
}

/** Whether an operation's well-formed request names a dialog: a test must create one first. */
export const needsDialog = (operationId: OperationId) =>
  contractValidators()
    .operation(operationId)
    .parameters.some((p) => identifies(p) === 'dialog');

/** The body schemas whose fields the spec does not show (§4.2), each sent in the run's own shape. */
const SHAPED_BODIES: Record<string, keyof RequestShapes> = { '#/components/schemas/SendBody': 'send', '#/components/schemas/CommandBody': 'command' };

/** The JSON body the document declares for an operation's request, if any. */
export const jsonBodyOf = (operationId: OperationId) => contractValidators().operation(operationId).requestBody?.content?.['application/json'];

/** The run's body shape an operation's request needs (its body's fields are not shown), if any. */
export function shapeOf(operationId: OperationId): keyof RequestShapes | undefined {
  const ref: unknown = (jsonBodyOf(operationId)?.schema as Record<string, unknown> | undefined)?.$ref;
  return typeof ref === 'string' ? SHAPED_BODIES[ref] : undefined;
}

/**
 * A request of the operation that is right in every part, built from the document: each parameter that names a
 * dialog, a bot or a file (x-identifies) gets the test's dialog, the configured bot or the file; a body whose fields
 * are not shown gets the run's shape, any other the document's example.
 */
export function wellFormedRequest(operationId: OperationId, { config, bodies, dialog, fileId }: RequestContext): CallOptions {
  const path: Record<string, string | number> = {};
  const query: Record<string, string | number> = {};
  for (const parameter of contractValidators().operation(operationId).parameters) {
    const names = identifies(parameter);
    if (names === undefined) continue;
    const isUuid = (parameter.schema as Record<string, unknown> | undefined)?.format === 'uuid';
    const value = names === 'bot' ? config.botId : names === 'file' ? (fileId ?? config.fileId ?? 1) : isUuid ? (dialog?.uuid ?? '') : (dialog?.v1Id ?? 0);
    if (parameter.in === 'path') path[parameter.name] = value;
    else if (parameter.in === 'query') query[parameter.name] = value;
  }
  const shape = shapeOf(operationId);
  const json =
    shape === 'send' ? bodies.send('dialog-contract check') : shape === 'command' ? bodies.command(config.gotoBotId) : jsonBodyOf(operationId)?.example;
  return { path, query, ...(json === undefined ? {} : { json }) };
}
