// Documented (operation, status) pairs that the public API cannot always bring about, and why. A pair missing
// from a run and from this table fails the coverage check: it is a hole in the suite.

const CANNOT_BREAK_INSTANCE = '403 needs a blocked instance, a stopped service or a deleted dialog (spec §5.3); the public API can bring none about';

export const NOT_DRIVABLE: Record<string, string> = {
  'getV1Conversations 403': CANNOT_BREAK_INSTANCE,
  'getV2Conversations 403': CANNOT_BREAK_INSTANCE,
  'getV1Conversation 403': `${CANNOT_BREAK_INSTANCE}; reads of completed dialogs are recorded as observations`,
  'getV2Conversation 403': `${CANNOT_BREAK_INSTANCE}; reads of completed dialogs are recorded as observations`,
  'getV1File 403': CANNOT_BREAK_INSTANCE,
  'getV2File 403': CANNOT_BREAK_INSTANCE,
  'getV1DialogCreate 403': 'driven only when BLOCKED_BOT_ID names a blocked bot',
  'getV2DialogCreate 403': 'driven only when BLOCKED_BOT_ID names a blocked bot',
  'postV2DialogCreate 403': 'driven only when BLOCKED_BOT_ID names a blocked bot',
  'postV2ConversationStart 403': 'driven only when the bot has a dialog in status "completed"',
  'postV2ConversationStop 403': 'driven only when the bot has a dialog in status "completed"',
  'postV2ConversationSend 403': 'driven only when the bot has a dialog in status "completed"',
  'postV2ConversationCommand 403': 'driven only when the bot has a dialog in status "completed"',
  'getV1File 200': 'driven only when FILE_ID is set or dialog data links to a file',
  'getV2File 200': 'driven only when FILE_ID is set or dialog data links to a file; GET /v2/file is not shown in the spec',
  'getV2File 404': 'GET /v2/file is not shown in the spec: its answer for an unknown file is recorded, not asserted',
};
