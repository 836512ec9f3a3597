// Creating dialogs: GET /v1/dialog/{BotID}/create, GET /v2/dialog/{BotID}/create (created, not started) and
// POST /v2/dialog/{BotID}/create (created and started). None of them documents 400, so every malformed input
// (BotID, variables, body) is "parameter value is wrong": 404 (spec §7).
import { HttpError, jsonReply, successReply, type Exchange } from '../exchange.ts';
import { enforceLimit } from '../limits.ts';
import { isObject, parseBoolean, parseInteger, parseJsonBody, parseVariables } from '../params.ts';
import type { Simulation } from '../simulation.ts';
import type { Dialog } from '../store.ts';
import type { Handler } from './types.ts';

const WRONG = 404;

export function createHandlers(sim: Simulation): Record<string, Handler> {
  const { config } = sim;

  function create(ex: Exchange, variablesText: string | undefined): Dialog {
    const botId = parseInteger(ex.params[0]!, WRONG, 'parameter value is wrong: BotID');
    let variables: Record<string, unknown> = {};
    if (variablesText !== undefined) {
      enforceLimit(config.limits.maxVariablesBytes, Buffer.byteLength(variablesText), 'variables size in bytes');
      variables = parseVariables(variablesText, WRONG);
    }
    sim.usableBot(botId);
    return sim.createDialog(botId, variables);
  }

  return {
    getV1DialogCreate: (ex) => jsonReply(200, { dialogId: create(ex, ex.query.get('variables') ?? undefined).uuid }),
    getV2DialogCreate: (ex) => successReply(config.create.v2Get, create(ex, ex.query.get('variables') ?? undefined)),

    // Body fields win over the query ones; without either, `response` is config.create.responseDefault.
    postV2DialogCreate: (ex) => {
      const body = parseJsonBody(ex.body, WRONG, false);
      if (body !== undefined && !isObject(body)) throw new HttpError(WRONG, 'parameter value is wrong: the body must be a JSON object');
      const fromBody = body ?? {};
      if (fromBody.variables !== undefined && typeof fromBody.variables !== 'string') {
        throw new HttpError(WRONG, 'parameter value is wrong: variables must be a string holding a JSON object');
      }
      if (fromBody.response !== undefined && typeof fromBody.response !== 'boolean') {
        throw new HttpError(WRONG, 'parameter value is wrong: response must be true or false');
      }
      const queryResponse = ex.query.get('response');
      const response =
        (fromBody.response as boolean | undefined) ??
        (queryResponse === null ? config.create.responseDefault : parseBoolean(queryResponse, WRONG, 'parameter value is wrong: response'));
      const dialog = create(ex, (fromBody.variables as string | undefined) ?? ex.query.get('variables') ?? undefined);
      sim.start(ex, dialog);
      return response ? jsonReply(200, { dialogId: dialog.id, dialogUUID: dialog.uuid }) : successReply(config.create.startedWithoutResponse, dialog);
    },
  };
}
