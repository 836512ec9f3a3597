// Inputs a real client sends, generated from the document (fixtures/input-space.ts, fast-check): for each operation
// GENERATED_CASES cases from the run's seed, spread over the classes of its inputs (every class met in every run). A
// valid input is accepted with a documented success and its effect holds where the run can read it back (a page's
// numbers, a message's text and a dialog's variables where a plain one shows, with nothing lost or changed); an
// identifier that names nothing gets not found or forbidden (a read: found); an input in a range the document leaves
// unsaid gets a documented success or any refusal; an input that breaks its documented format is refused with a status
// §7 lists for the operation; nothing is a server error. A failure is shrunk to its smallest input
// (contract/api/generated-cases.ts). In the probes' project: one at a time, each case taking its requests from the
// run's budget as it goes (a budget too small leaves the operation not judged, never failed).
import { eachRunApart, test } from '../fixtures/probe-test.ts';
import type { StatusExpectation } from '../../checks/response.ts';
import type { Operation } from '../../openapi/document.ts';
import { contractValidators, type ContractValidators } from '../../openapi/validators.ts';
import type { Json } from '../../lib/json.ts';
import { failureId } from '../../lib/failure.ts';
import type { SizeLimitId } from '../../lib/observations.ts';
import { storedForm } from '../../checks/stored-text.ts';
import type { GeneratedCase, RunKnowledge } from '../../fixtures/input-space.ts';
import type { CaseVerdict } from '../api/generated-cases.ts';
import { contractFailures, failuresOfCheck } from '../judging/matchers.ts';
import { boundOf, largestAccepted, runSizeLimit, sizeLimit } from '../api/size-limit.ts';
import { readV2, sendAsOperator, shapeOf, stopDialog } from '../api/requests.ts';
import { listedItems, readEnvelope } from '../api/lists.ts';
import { MAX_TOKEN_CHECKS } from '../api/custom-block.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { CallOptions } from '../target/client.ts';
import type { CreateVia } from '../api/dialog-factory.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** What stands for the integration token in a generated body until a block hands its own (each complete takes one). */
const TOKEN = 'dialog-contract-token';

/** Requests of a custom block (fixtures customBlock): its POST create, the token checks, its stop. */
const BLOCK_BOUND = 1 + MAX_TOKEN_CHECKS + 1;

/** How each create makes the control dialog of its own operation. */
const VIA: Partial<Record<Operation['operationId'], CreateVia>> = {
  getV1DialogCreate: 'v1-get',
  getV2DialogCreate: 'v2-get',
  postV2DialogCreate: 'v2-post',
};

/**
 * A fixed text that shows what a store does to a text without losing it: spaces around it, a decomposed letter,
 * markup, a CRLF line break. How it shows is the stored-text observation, the same under every seed.
 */
const revealing = (marker: string) => ` \u00a0${marker} e\u0301 <b> & "q"\r\nok `;

/** The size limit (§8.3, §8.4) of each input the run generates lengths for, by the input's name and operation. */
function limitsOf(op: Operation): SizeLimitId[] {
  const names = new Set(op.parameters.map((p) => p.name));
  if (names.has('PageCount')) return ['limit.maxPageCount'];
  if (names.has('variables')) return ['limit.maxVariablesBytes'];
  if (shapeOf(op.operationId) === 'send') return ['limit.maxTextLength.send'];
  return op.operationId === 'postVertexSendMessage' ? ['limit.maxTextLength.sendMessage'] : [];
}

/** The statuses the document gives a case of its class (§7), as the registry's status checks hold them. */
function expectationOf(validators: ContractValidators, op: Operation, c: GeneratedCase, status: number): StatusExpectation {
  const { operationId } = op;
  const successes = Object.keys(op.responses)
    .filter((s) => /^2/.test(s))
    .map((s) => (s === '2XX' ? ('2XX' as const) : Number(s)));
  switch (c.class) {
    case 'invalid': {
      // A body that cannot be read shows no token either: the custom-block API may call it an invalid one (403).
      const token = op.needsBasicAuth ? [] : validators.statusesFor(operationId, 'forbidden');
      return {
        status: [...validators.statusesFor(operationId, 'bad-input'), ...token],
        because: `for ${c.broken}`,
        section: '7',
        check: 'negative_data_rejection',
      };
    }
    case 'names-nothing': {
      const found = op.method === 'GET' ? successes.filter((s): s is number => s !== '2XX') : [];
      const statuses = [...found, ...validators.statusesFor(operationId, 'not-found'), ...validators.statusesFor(operationId, 'forbidden')];
      return {
        status: statuses,
        because: 'for an identifier of the right type that names nothing the run knows (found, not found, or of another instance)',
        section: '7',
      };
    }
    case 'unsaid':
      // A range the document leaves unsaid: a success is held to the document, a refusal of any kind is the vendor's
      // limit (the size search takes 413, 414, 422 and 431 alike); never a server error.
      return status < 300 ? {} : { only: ['not_a_server_error'] };
    case 'valid': {
      // POST create's answer is documented for response true only (§4.2); otherwise any success, its body not shown.
      const response = c.input['query.response'] ?? c.input['body.response'];
      if (op.responses['2XX'] && response !== true) return { status: '2XX', because: 'for valid input', section: op.section, bodyNotShown: true };
      return { status: successes.filter((s): s is number => s !== '2XX'), because: 'for valid input', section: op.section };
    }
  }
}

/** A case as a ticket quotes it: what was generated, its class, and what was broken. */
const quoted = (c: GeneratedCase): Json => JSON.parse(JSON.stringify({ ...c.input, class: c.class, ...(c.broken ? { broken: c.broken } : {}) })) as Json;

/** The variables a create case passed, parsed: one value wherever it went. */
function variablesOf(c: GeneratedCase): Record<string, unknown> | undefined {
  const text = c.input['query.variables'] ?? c.input['body.variables'];
  return typeof text === 'string' ? (JSON.parse(text) as Record<string, unknown>) : undefined;
}

const withToken = (json: unknown, token: string): unknown => (json && typeof json === 'object' && 'token' in json ? { ...json, token } : json);

eachRunApart(() => {
  for (const operationId of contractValidators().operations.keys()) {
    test(`${operationId}: generated inputs are taken, or refused as §7 says, never a server error`, async ({
      api,
      anonymousApi,
      validators,
      config,
      bodies,
      dialogs,
      probe,
      precondition,
      customBlock,
      observe,
    }) => {
      // Loaded by the test that draws the inputs, never by Playwright's runner, which only lists the tests: fast-check
      // and the classes built on it are a tenth of a second of a process's start.
      const [{ acceptedText, casePlan, fociOf, focusSeed }, { recordSmallest, runCases }] = await Promise.all([
        import('../../fixtures/input-space.ts'),
        import('../api/generated-cases.ts'),
      ]);
      const op = validators.operation(operationId);
      const client = op.needsBasicAuth ? api : anonymousApi;
      const shape = shapeOf(operationId);
      const via = VIA[operationId];
      // What its controls observe: listed with the reason when it cannot run.
      const covers = { observations: shape === 'send' ? ['send.stored-text'] : via ? ['variables.stored-text'] : [] };
      if (shape) precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', covers);
      // A create whose answer may not name its dialog finds it in the bot's list (dialogs.track).
      const lookup = dialogs.trackBound;
      // What it sends before its cases: its controls (each dialog's stop included), the limits it sizes inputs by if
      // no probe of the run searched them (each value a create takes makes a dialog, stopped after).
      const limits = limitsOf(op);
      const controls =
        shape === 'send'
          ? 1 + 1 + 2 * (1 + 1) + 1
          : via
            ? 1 + (via === 'v2-get' ? lookup : 0) + 1 + 1
            : operationId === 'postVertexSendMessage'
              ? BLOCK_BOUND
              : 0;
      const search = limits.reduce((n, id) => n + boundOf(sizeLimit(id)) * (op.creates ? 2 : 1), 0);
      probe(controls + search, `generated inputs of ${op.label}`, covers);

      const run: RunKnowledge = {
        botId: config.botId,
        token: TOKEN,
        ...(bodies.missing('send') ? {} : { sendBody: (text: string) => bodies.send(text) }),
        ...(bodies.missing('command') ? {} : { commandBody: () => bodies.command(config.gotoBotId) }),
        accepted: {},
      };
      // send: a dialog with an operator; whether a plain message shows in its data (send.in-record), and how a
      // revealing one does (send.stored-text).
      let plainShown = false;
      if (shape === 'send') {
        const { dialog } = await dialogs.create('v1-get');
        await stopDialog(api, dialog.uuid);
        run.dialog = { uuid: dialog.uuid };
        const marker = `dialog-contract-${dialog.uuid.slice(0, 8)}`;
        const sent = await sendAsOperator(api, bodies, dialog.uuid, `${marker} plain`);
        precondition(
          sent.status === 204,
          `a plain message to a dialog with an operator answered ${sent.status}: generated texts would not isolate the input`,
          covers,
        );
        plainShown = ((await readV2(api, dialog.uuid)).record?.data ?? []).some((item) => item.answer.includes(`${marker} plain`));
        const text = revealing(`${marker}-form`);
        const form = await sendAsOperator(api, bodies, dialog.uuid, text);
        const shown = ((await readV2(api, dialog.uuid)).record?.data ?? []).find((item) => item.answer.includes(`${marker}-form`));
        observe(op, {
          id: 'send.stored-text',
          section: '4.2',
          item: "how an operator's message text shows in the dialog's data: as sent, or in which form a store keeps a text whole",
          observed: form.status === 204 ? storedForm(text, shown?.answer) : [`refused with ${form.status}`],
        });
      }
      // send_message: one block's token for every case.
      let token = TOKEN;
      if (operationId === 'postVertexSendMessage') token = (await customBlock({})).token;
      for (const id of limits) {
        const limit = sizeLimit(id);
        const context = { botId: config.botId, dialogUuid: run.dialog?.uuid, sendBody: bodies.shapes.send.template ?? undefined, vertexToken: token };
        const createdAfter = Date.now();
        const found = largestAccepted(
          await runSizeLimit(client, limit, context, (res) => {
            const uuid = res.json<{ dialogUUID?: unknown }>()?.dialogUUID;
            if (typeof uuid === 'string') dialogs.adopt(uuid, config.botId, createdAfter);
          }),
        );
        if (found === undefined) continue;
        if (id === 'limit.maxPageCount') run.accepted.pageCount = found;
        else if (id === 'limit.maxVariablesBytes') run.accepted.variables = acceptedText(found);
        else if (id === 'limit.maxTextLength.send') run.accepted.sendText = acceptedText(found);
        else run.accepted.sendMessageText = acceptedText(found);
      }
      // creates: a dialog of this very create with a plain variable: whether it shows in the data, and under its name
      // (variables.in-record); a GET create's dialog is not started, and may show none until it is. How a revealing
      // value shows: variables.stored-text.
      let plain = { shown: false, named: false };
      if (via) {
        const marker = `dialog-contract-${Date.now().toString(36)}`;
        const text = revealing(`${marker}-form`);
        const { dialog } = await dialogs.create(via, { variables: { dialog_contract: marker, dialog_contract_form: text } });
        const data = (await readV2(api, dialog.uuid)).record?.data ?? [];
        plain = { shown: data.some((i) => i.answer === marker), named: data.some((i) => i.answer === marker && i.variable === 'dialog_contract') };
        // One item for the three creates: a store keeps the variables of each alike (or the item shows each way).
        observe({
          id: 'variables.stored-text',
          section: '4.1',
          item: "how a variable's text value shows in the dialog's data: as passed, or in which form a store keeps a text whole",
          observed: storedForm(text, data.find((i) => i.answer.includes(`${marker}-form`))?.answer),
        });
      }

      const { foci, missing } = fociOf(validators.doc, op, run);
      precondition(foci.length > 0, `no input of ${op.label} can be generated: ${missing.join('; ')}`);
      const seed = config.seed ?? 0;
      const messageIds: number[] = [];

      /** Whether a create's answer names its dialog (V1's dialogId, POST's dialogUUID with response true, §2.4). */
      const namedByAnswer = (c: GeneratedCase) =>
        operationId === 'getV1DialogCreate' || (operationId === 'postV2DialogCreate' && (c.input['query.response'] ?? c.input['body.response']) === true);

      /** The most requests a case sends: itself, a create's lookup, read-back and stop, a complete's own block. */
      const costOf = (c: GeneratedCase): number => {
        if (op.creates) return 1 + (namedByAnswer(c) ? 0 : lookup) + (c.class === 'valid' && plain.shown && variablesOf(c) ? 1 : 0) + 1;
        if (operationId === 'postVertexComplete' && c.raw === undefined) return BLOCK_BOUND + 1;
        return 1 + (shape === 'send' && c.class === 'valid' && plainShown ? 1 : 0);
      };

      const judgeCase = async (c: GeneratedCase): Promise<CaseVerdict> => {
        // The stops of the dialogs made so far, the test's own and its cases', are sent at its end.
        probe.more(costOf(c), `a generated case of ${op.label}`, dialogs.created.length);
        // Each complete finishes its block: a valid one gets a block of its own.
        const blockToken = operationId === 'postVertexComplete' && c.raw === undefined ? (await customBlock({})).token : token;
        const options: CallOptions = {
          path: c.path,
          query: c.query,
          ...(c.raw !== undefined ? { raw: c.raw.replaceAll(TOKEN, blockToken) } : c.json !== undefined ? { json: withToken(c.json, blockToken) } : {}),
          judgedByCaller: true,
        };
        const before = dialogs.created.length;
        const res = op.creates ? await create(c, options) : await client.call(operationId, options);
        const failures = contractFailures(res, expectationOf(validators, op, c, res.status));
        if (failures.length > 0 || res.status >= 300 || c.class !== 'valid') return { response: res, failures };
        return { response: res, failures: await effects(c, res, dialogs.created.slice(before)) };
      };

      /**
       * A create, its dialog taken over for cleanup: from its answer where that names it, else the one new in the
       * bot's list (a broken BotID the vendor took made one too). One that answered success and named none the run
       * can find is listed with why.
       */
      const create = async (c: GeneratedCase, options: CallOptions) => {
        if (!namedByAnswer(c)) return dialogs.track(config.botId, () => client.call(operationId, options));
        const createdAfter = Date.now();
        const res = await client.call(operationId, options);
        const uuid = UUID.exec(res.text)?.[0];
        if (res.status < 300 && uuid) dialogs.adopt(uuid, config.botId, createdAfter);
        else if (res.status < 300) dialogs.unidentified(config.botId, `${op.label} → ${res.status} named no dialog (a generated case)`);
        return res;
      };

      /** What a valid input's success did, where the run can read it back. */
      const effects = async (c: GeneratedCase, res: ApiResponse, made: ReadonlyArray<{ uuid: string }>) => {
        if (op.operationId === 'getV1Conversations' || op.operationId === 'getV2Conversations') {
          const pagination = readEnvelope(res.json<Record<string, unknown>>() ?? {}).pagination;
          if (!pagination) return [];
          const asked = { PageCount: c.query.PageCount as number | undefined, PageNumber: c.query.PageNumber as number | undefined };
          return failuresOfCheck(res, 'pagination_conformance.page_numbers', { items: listedItems(res).length, pagination, asked });
        }
        if (shape === 'send' && typeof c.input.text === 'string' && plainShown) {
          const read = await readV2(api, run.dialog!.uuid);
          const answers = (read.record?.data ?? []).map((i) => i.answer);
          return failuresOfCheck(res, 'effect_of_send.text_as_sent', { plainShown, text: c.input.text, answers }, { shownBy: [read.response] });
        }
        const variables = variablesOf(c);
        if (op.creates && variables && plain.shown && made[0]) {
          const read = await readV2(api, made[0].uuid);
          const data = read.record?.data ?? [];
          return failuresOfCheck(
            res,
            'effect_of_create.variables_as_passed',
            { plain, variables, data },
            { shownBy: [read.response], details: { dialog: made[0].uuid } },
          );
        }
        if (operationId === 'postVertexSendMessage') {
          const id = res.json<{ message_id?: number }>()?.message_id;
          const failures = typeof id === 'number' ? failuresOfCheck(res, 'meaning_conformance.message_id', { messageId: id, earlier: [...messageIds] }) : [];
          if (typeof id === 'number') messageIds.push(id);
          return failures;
        }
        return [];
      };

      // Every focus its cases (one class of one input, the rest valid): each failure shrunk and recorded once.
      const recorded = new Set<string>();
      // A failure another focus recorded is not shrunk again: one drift is one failure, and shrinking costs requests.
      const fresh = (verdict: CaseVerdict) => !verdict.failures.map(failureId).every((id) => recorded.has(id));
      let stopped: string | undefined;
      const accepted = JSON.parse(JSON.stringify(run.accepted)) as Json;
      for (const { focus, cases } of casePlan(foci, config.generatedCases)) {
        const outcome = await runCases(focus.arbitrary, focusSeed(seed, operationId, focus), cases, judgeCase, fresh);
        if (outcome.failed && fresh(outcome.failed.verdict)) {
          recordSmallest(outcome, { seed, focus: focus.name, accepted }, quoted);
          for (const id of outcome.failed.verdict.failures.map(failureId)) recorded.add(id);
        }
        if ((stopped = outcome.stopped) !== undefined) break;
      }
      // The budget ran out before the cases did: what ran is no verdict on the operation, unless it found a failure.
      precondition(stopped === undefined || recorded.size > 0, `${op.label}'s generated cases did not all run: ${stopped}`);
    });
  }
});
