// One dialog: read (V1, V2), start, stop, send, command (spec §3, §4.1, §4.2).
// Order of checks: path parameter (404), then body (400) and the dialog (404, then 403 deleted/completed, then its
// state) in the order config.validation.dialogBeforeBody gives, then the target bot of a goto.
import { FieldError, HttpError, emptyReply, jsonReply, successReply, type Exchange } from '../exchange.ts';
import { wordRefusal, type RefusedField } from '../refusal-wording.ts';
import { enforceLimit } from '../limits.ts';
import { isObject, parseInteger, parseJsonBody, parseUuid, valueAt } from '../params.ts';
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

  /** Parses the body and checks the dialog, in the configured order. */
  function ordered<T>(parseBody: () => T, checkDialog: () => Dialog): [T, Dialog] {
    if (config.validation.dialogBeforeBody) {
      const dialog = checkDialog();
      return [parseBody(), dialog];
    }
    const parsed = parseBody();
    return [parsed, checkDialog()];
  }

  /**
   * A refused field: in the simulator's own words (`says` without the field's name, `detail` a sentence), or in the
   * vendor's (config.errors.wording), which then are both.
   */
  function refuse(refused: RefusedField, says: string, detail: string): FieldError {
    const wording = config.errors.wording;
    if (!wording) return new FieldError(refused.path, says, detail);
    const values = [config.command.gotoValue, ...wording.otherValues];
    const words = wordRefusal(wording, refused, values, config.send.textFields.includes(refused.path));
    return new FieldError(refused.path, words.sentence, words.sentence, words);
  }

  /** The message text of a send body, or undefined when a lenient vendor finds none (nothing is sent). */
  function sendText(raw: Buffer): string | undefined {
    const { textFields, lenient } = config.send;
    const body = parseJsonBody(raw, 400, true);
    const text = isObject(body) ? textFields.map((path) => valueAt(body, path)).find((v) => v !== undefined) : undefined;
    if (text === undefined && lenient && isObject(body)) return undefined;
    if (!isObject(body)) throw new HttpError(400, 'the body must be a JSON object');
    // Named as vendors name a refused field: the first field it reads, and the others it would take.
    if (typeof text !== 'string' || text.length === 0) {
      const says = text === undefined ? 'is required: a non-empty string' : 'must be a non-empty string';
      throw refuse(
        { kind: text === undefined ? 'missing' : 'wrongType', path: textFields[0]!, wants: { type: 'string' } },
        says,
        `${text === undefined ? 'missing required field' : 'wrong field'} '${textFields.join("' or '")}': a non-empty string`,
      );
    }
    enforceLimit(config.limits.maxTextLength, text.length, 'text length');
    return text;
  }

  /** A bot id as config.command.botType writes it. */
  function botIdOf(value: unknown): number {
    const { botField, botType } = config.command;
    const wanted = botType === 'integer' ? 'an integer bot id' : 'a bot id written as a decimal string, like "202"';
    const fits = botType === 'integer' ? typeof value === 'number' && Number.isSafeInteger(value) : typeof value === 'string';
    const wants = { type: botType };
    if (value === undefined)
      throw refuse({ kind: 'missing', path: botField, wants }, `is required: ${wanted}`, `missing required field '${botField}': ${wanted}`);
    if (!fits) throw refuse({ kind: 'wrongType', path: botField, wants }, `must be ${wanted}`, `'${botField}' must be ${wanted}`);
    return botType === 'integer' ? (value as number) : parseInteger(value as string, 400, botField);
  }

  /** The named target bot (if any) and whether the body is a goto to apply; only a lenient vendor lets a non-goto through. */
  function parseCommand(raw: Buffer): { target: number | undefined; apply: boolean } {
    const { commandField, botField, gotoValue, lenient } = config.command;
    const body = parseJsonBody(raw, 400, true);
    const isGoto = isObject(body) && valueAt(body, commandField) === gotoValue;
    if (!isObject(body)) throw new HttpError(400, 'the body must be a JSON object');
    if (!isGoto && !lenient)
      throw refuse(
        { kind: 'wrongValue', path: commandField, wants: { value: gotoValue } },
        `must be "${gotoValue}"`,
        `'${commandField}' must be "${gotoValue}"`,
      );
    const bot = valueAt(body, botField);
    if (bot === undefined && lenient) return { target: undefined, apply: false };
    return { target: botIdOf(bot), apply: isGoto };
  }

  return {
    getV1Conversation: (ex) => jsonReply(200, store.record(sim.accessible(ex, v1Dialog(sim, ex), 'dialog'), 'v1')),
    getV2Conversation: (ex) => jsonReply(200, store.record(sim.accessible(ex, v2Dialog(sim, ex), 'dialog'), 'v2')),

    postV2ConversationStart: (ex) => {
      const dialog = v2Dialog(sim, ex);
      sim.start(ex, config.transitions.startCompleted === 'reopen' ? sim.accessible(ex, dialog, 'dialog') : sim.actionable(ex, dialog, 'dialog'));
      return emptyReply(204);
    },

    postV2ConversationStop: (ex) => {
      sim.change(ex, sim.actionable(ex, v2Dialog(sim, ex), 'dialog'), { state: 'operator' });
      return emptyReply(204);
    },

    postV2ConversationSend: (ex) => {
      const found = v2Dialog(sim, ex);
      const [text, dialog] = ordered(
        () => sendText(ex.body),
        () => {
          const dialog = sim.actionable(ex, found, 'dialog');
          if (!config.send.allowedStatuses.includes(dialog.state)) {
            throw new HttpError(config.send.rejectStatus, `send needs an operator on the dialog (status ${config.statuses[dialog.state]})`);
          }
          return dialog;
        },
      );
      if (text === undefined) return emptyReply(204);
      const item = config.send.dataItem;
      // A state-like change, so a drift can bend it: the message that never reaches the dialog.
      const message = {
        at: sim.now(),
        movesUpdated: config.send.movesUpdated,
        ...(item ? { item: { question: item.question, type: item.type, answer: text, variable: null } } : {}),
      };
      sim.change(ex, dialog, { message });
      return emptyReply(204);
    },

    postV2ConversationCommand: (ex) => {
      const found = v2Dialog(sim, ex);
      const [{ target, apply }, dialog] = ordered(
        () => parseCommand(ex.body),
        () => sim.actionable(ex, found, 'dialog'),
      );
      if (target !== undefined) sim.usableBot(target, config.command.unknownBotStatus);
      if (apply) sim.change(ex, dialog, { botId: target });
      return successReply(config.command.success, dialog);
    },
  };
}
