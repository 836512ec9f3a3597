// One dialog: read (V1, V2), start, stop, send, command (spec §3, §4.1, §4.2).
// Order of checks: path parameter (404), body (400), the dialog (404, then 403 deleted/completed), its state.
import { HttpError, emptyReply, jsonReply, successReply, type Exchange } from '../exchange.ts';
import { enforceLimit } from '../limits.ts';
import { isObject, parseInteger, parseJsonBody, parseUuid } from '../params.ts';
import type { Simulation } from '../simulation.ts';
import type { Dialog } from '../store.ts';
import type { Handler } from './types.ts';

/** The dialog named by the path: V1 integer id or V2 UUID; a malformed one is "parameter value is wrong" (404). */
function v1Dialog(sim: Simulation, ex: Exchange): Dialog | undefined {
  return sim.store.byV1(parseInteger(ex.params[0]!, 404, 'parameter value is wrong: id'));
}
function v2Dialog(sim: Simulation, ex: Exchange): Dialog | undefined {
  return sim.store.byV2(parseUuid(ex.params[0]!, 404, 'parameter value is wrong: uuid'));
}

export function dialogHandlers(sim: Simulation): Record<string, Handler> {
  const { config, store } = sim;
  return {
    getV1Conversation: (ex) => jsonReply(200, store.record(sim.accessible(ex, v1Dialog(sim, ex), 'dialog'), 'v1')),
    getV2Conversation: (ex) => jsonReply(200, store.record(sim.accessible(ex, v2Dialog(sim, ex), 'dialog'), 'v2')),

    postV2ConversationStart: (ex) => {
      sim.start(ex, sim.actionable(ex, v2Dialog(sim, ex), 'dialog'));
      return emptyReply(204);
    },

    postV2ConversationStop: (ex) => {
      sim.change(ex, sim.actionable(ex, v2Dialog(sim, ex), 'dialog'), { state: 'operator' });
      return emptyReply(204);
    },

    postV2ConversationSend: (ex) => {
      const uuid = v2Dialog(sim, ex);
      const body = parseJsonBody(ex.body, 400, true);
      const field = isObject(body) ? config.send.textFields.find((name) => name in body) : undefined;
      const text = field === undefined ? undefined : (body as Record<string, unknown>)[field];
      if (typeof text !== 'string' || text.length === 0) {
        throw new HttpError(400, `the body must be a JSON object with a non-empty string in ${config.send.textFields.join(' or ')}`);
      }
      enforceLimit(config.limits.maxTextLength, text.length, 'text length');
      const dialog = sim.actionable(ex, uuid, 'dialog');
      if (!config.send.allowedStatuses.includes(dialog.state)) {
        throw new HttpError(config.send.rejectStatus, `send needs an operator on the dialog (status ${config.statuses[dialog.state]})`);
      }
      const item = config.send.dataItem;
      store.message(dialog, sim.now(), item ? { question: item.question, type: item.type, answer: text, variable: null } : undefined);
      return emptyReply(204);
    },

    postV2ConversationCommand: (ex) => {
      const uuid = v2Dialog(sim, ex);
      const { commandField, botField, gotoValue } = config.command;
      const body = parseJsonBody(ex.body, 400, true);
      if (!isObject(body) || body[commandField] !== gotoValue) {
        throw new HttpError(400, `the body must be a JSON object with ${commandField}: "${gotoValue}"`);
      }
      const target = body[botField];
      if (typeof target !== 'number' || !Number.isSafeInteger(target)) {
        throw new HttpError(400, `${botField} must be an integer bot id`);
      }
      const dialog = sim.actionable(ex, uuid, 'dialog');
      sim.usableBot(target);
      sim.change(ex, dialog, { botId: target });
      return successReply(config.command.success, dialog);
    },
  };
}
