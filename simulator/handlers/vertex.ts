// Custom-block API (spec §4.3): the integration token travels in the JSON body, never in a header.
// send_message documents 400 for a malformed request; complete documents only 403, so every failure there is 403.
import { HttpError, emptyReply, jsonReply, type Exchange } from '../exchange.ts';
import { enforceLimit } from '../limits.ts';
import { isObject, parseJsonBody } from '../params.ts';
import type { Simulation } from '../simulation.ts';
import type { Dialog } from '../store.ts';
import type { Handler } from './types.ts';

export function vertexHandlers(sim: Simulation): Record<string, Handler> {
  const { config, store } = sim;

  /** The body and the dialog of a live token; `malformed` is the status for a body that is not a JSON object. */
  function session(ex: Exchange, malformed: number): { body: Record<string, unknown>; token: string; dialog: Dialog } {
    const body = parseJsonBody(ex.body, malformed, true);
    if (!isObject(body)) throw new HttpError(malformed, 'the body must be a JSON object');
    const token = body.token;
    const id = typeof token === 'string' ? sim.blocks.dialogOf(token) : undefined;
    const dialog = id === undefined ? undefined : store.byV1(id);
    if (!dialog || dialog.deleted || dialog.state === 'completed') throw new HttpError(403, 'invalid token');
    ex.dialog = dialog;
    return { body, token: token as string, dialog };
  }

  return {
    postVertexSendMessage: (ex) => {
      const { body, dialog } = session(ex, 400);
      const { text, typing } = body;
      if (text === undefined ? config.vertex.requireText : typeof text !== 'string') throw new HttpError(400, 'text must be a string');
      if (typing !== undefined && typeof typing !== 'boolean') throw new HttpError(400, 'typing must be true or false');
      enforceLimit(config.limits.maxTextLength, typeof text === 'string' ? text.length : 0, 'text length');
      const now = sim.now();
      store.message(dialog, now);
      return jsonReply(200, { message_id: store.nextMessageId++, created_at: Math.floor(now / 1000) });
    },

    postVertexComplete: (ex) => {
      const { token, dialog } = session(ex, 403);
      sim.blocks.finish(token);
      sim.change(ex, dialog, { state: 'inProcess' });
      return emptyReply(204);
    },
  };
}
