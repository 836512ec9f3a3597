// A well-formed request for each V1/V2 operation, so auth and error tests vary one thing at a time. Send and
// command carry the run's own body shape (configured or discovered): a vendor that validates the body before it
// looks up the dialog must still see a body it accepts.
import type { CallOptions } from '../client.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import type { RequestBodies } from '../../http/request-bodies.ts';
import type { Dialog } from '../dialog-factory.ts';

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
