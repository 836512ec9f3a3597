// Inputs a real client sends, generated from the document (fixtures/input-space.ts, fast-check): for each operation
// GENERATED_CASES cases of every input it takes, from the run's seed. A valid input is accepted with a documented
// success and its effect holds where the run can read it back (a page's numbers, a message's text and a dialog's
// variables where a plain one shows); an identifier that names nothing the run knows gets not found or forbidden;
// an input in a range the document leaves unsaid gets any documented answer; an input that breaks its documented
// format is refused with a status §7 lists for the operation; nothing is a server error. A failure is shrunk to its
// smallest input (contract/api/generated-cases.ts). In the probes' project: counted in the run's budget, one at a time.
import { eachRun, test } from '../fixtures/probe-test.ts';
import type { StatusExpectation } from '../../checks/response.ts';
import type { Operation } from '../../openapi/document.ts';
import { contractValidators, type ContractValidators } from '../../openapi/validators.ts';
import type { Json } from '../../lib/json.ts';
import type { SizeLimitId } from '../../lib/observations.ts';
import { acceptedText, casesOf, type GeneratedCase, type RunKnowledge } from '../../fixtures/input-space.ts';
import { operationSeed, recordSmallest, runCases, SHRINK_BUDGET, type CaseVerdict } from '../api/generated-cases.ts';
import { contractFailuresOf, failuresOfCheck } from '../judging/matchers.ts';
import { boundOf, largestAccepted, runSizeLimit, sizeLimit } from '../api/size-limit.ts';
import { readV2, sendAsOperator, shapeOf, stopDialog } from '../api/requests.ts';
import { listedItems, readEnvelope } from '../api/lists.ts';
import { MAX_TOKEN_CHECKS } from '../api/custom-block.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { CallOptions } from '../target/client.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** What stands for the integration token in a generated body until a block hands its own (each complete takes one). */
const TOKEN = 'dialog-contract-token';

/** Requests one case sends at most, beyond the one request it is: a create's list lookup, reads, its dialog's stop. */
const AROUND: Partial<Record<Operation['operationId'], number>> = {
  postV2ConversationSend: 1,
  getV1DialogCreate: 7,
  getV2DialogCreate: 7,
  postV2DialogCreate: 7,
  postVertexComplete: 2 + MAX_TOKEN_CHECKS,
};

/** The size limit (§8.3, §8.4) of each input the run generates lengths for, by the input's name and operation. */
function limitsOf(op: Operation): SizeLimitId[] {
  const names = new Set(op.parameters.map((p) => p.name));
  if (names.has('PageCount')) return ['limit.maxPageCount'];
  if (names.has('variables')) return ['limit.maxVariablesBytes'];
  if (shapeOf(op.operationId) === 'send') return ['limit.maxTextLength.send'];
  return op.operationId === 'postVertexSendMessage' ? ['limit.maxTextLength.sendMessage'] : [];
}

/** The statuses the document gives a case of its class (§7), as the registry's status checks hold them. */
function expectationOf(validators: ContractValidators, op: Operation, c: GeneratedCase): StatusExpectation {
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
      const status = [...found, ...validators.statusesFor(operationId, 'not-found'), ...validators.statusesFor(operationId, 'forbidden')];
      return {
        status,
        because: 'for an identifier of the right type that names nothing the run knows (found, not found, or of another instance)',
        section: '7',
      };
    }
    case 'unsaid':
      return {};
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

eachRun(() => {
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
    }) => {
      const op = validators.operation(operationId);
      const client = op.needsBasicAuth ? api : anonymousApi;
      const shape = shapeOf(operationId);
      if (shape) precondition(!bodies.missing(shape), bodies.missing(shape) ?? '');
      const needsToken = !op.needsBasicAuth;
      // The limits it sizes inputs by, searched now if no probe of the run did (then counted here).
      const limits = limitsOf(op);
      const around = AROUND[operationId] ?? 0;
      const controls = shape === 'send' ? 2 + 1 + 1 + 1 : op.creates ? 7 : needsToken && operationId === 'postVertexSendMessage' ? 1 + MAX_TOKEN_CHECKS + 1 : 0;
      const search = limits.reduce((n, id) => n + boundOf(sizeLimit(id)) * (op.creates ? 2 : 1), 0);
      // Valid cases and invalid ones, GENERATED_CASES in all, each kind with its shrinking.
      probe(controls + search + (config.generatedCases + 2 * SHRINK_BUDGET) * (1 + around), `generated inputs of ${op.label}`);

      const run: RunKnowledge = {
        botId: config.botId,
        token: TOKEN,
        ...(bodies.missing('send') ? {} : { sendBody: (text: string) => bodies.send(text) }),
        ...(bodies.missing('command') ? {} : { commandBody: () => bodies.command(config.gotoBotId) }),
        accepted: {},
      };
      // send: a dialog with an operator, and whether a plain message shows in its data (send.in-record).
      let plainShown = false;
      if (shape === 'send') {
        const { dialog } = await dialogs.create('v1-get');
        await stopDialog(api, dialog.uuid);
        run.dialog = { uuid: dialog.uuid };
        const plain = `dialog-contract plain ${dialog.uuid.slice(0, 8)}`;
        const sent = await sendAsOperator(api, bodies, dialog.uuid, plain);
        precondition(sent.status === 204, `a plain message to a dialog with an operator answered ${sent.status}: generated texts would not isolate the input`);
        plainShown = ((await readV2(api, dialog.uuid)).record?.data ?? []).some((item) => item.answer.includes(plain));
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
      // creates: whether plain variables show in the data, and under their name (variables.in-record).
      let plain = { shown: false, named: false };
      if (op.creates) {
        const marker = `dialog-contract-${Date.now().toString(36)}`;
        const { dialog } = await dialogs.create('v2-post', { variables: { dialog_contract: marker } });
        const data = (await readV2(api, dialog.uuid)).record?.data ?? [];
        plain = { shown: data.some((i) => i.answer === marker), named: data.some((i) => i.answer === marker && i.variable === 'dialog_contract') };
      }

      const { valid, invalid } = casesOf(validators.doc, op, run);
      precondition(
        valid !== undefined || invalid !== undefined,
        `the document gives no input of ${op.label} a type or format (its parameters and response are not shown)`,
      );
      const seed = config.seed ?? 0;
      const messageIds: number[] = [];

      const judgeCase = async (c: GeneratedCase): Promise<CaseVerdict> => {
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
        const failures = contractFailuresOf(res, expectationOf(validators, op, c));
        if (failures.length > 0 || res.status >= 300) return { response: res, failures };
        return { response: res, failures: await effects(c, res, dialogs.created.slice(before)) };
      };

      /**
       * A create, its dialog taken over for cleanup: from its answer where that names it (V1's dialogId, POST's
       * dialogUUID with response true; a broken one names none unless the vendor took it), else from the list.
       */
      const create = async (c: GeneratedCase, options: CallOptions) => {
        const response = c.input['query.response'] ?? c.input['body.response'];
        const named = operationId === 'getV1DialogCreate' || (operationId === 'postV2DialogCreate' && response === true) || c.class === 'invalid';
        if (!named) return dialogs.track(config.botId, () => client.call(operationId, options));
        const createdAfter = Date.now();
        const res = await client.call(operationId, options);
        const uuid = UUID.exec(res.text)?.[0];
        if (uuid && res.status < 300) dialogs.adopt(uuid, config.botId, createdAfter);
        return res;
      };

      /** What a success did, where the run can read it back. */
      const effects = async (c: GeneratedCase, res: ApiResponse, made: ReadonlyArray<{ uuid: string }>) => {
        if (op.operationId === 'getV1Conversations' || op.operationId === 'getV2Conversations') {
          const pagination = readEnvelope(res.json<Record<string, unknown>>() ?? {}).pagination;
          if (!pagination) return [];
          const asked = { PageCount: c.query.PageCount as number | undefined, PageNumber: c.query.PageNumber as number | undefined };
          return failuresOfCheck(res, 'pagination_conformance.page_numbers', { items: listedItems(res).length, pagination, asked });
        }
        if (shape === 'send' && c.class === 'valid' && typeof c.input.text === 'string' && plainShown) {
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

      // Half the cases valid, half invalid (all of one kind where the operation has no other): a class of either is met.
      const half = valid && invalid ? Math.ceil(config.generatedCases / 2) : config.generatedCases;
      const kinds = [
        ['valid', valid, half],
        ['invalid', invalid, valid ? config.generatedCases - half : config.generatedCases],
      ] as const;
      for (const [kind, arbitrary, cases] of kinds) {
        if (!arbitrary || cases <= 0) continue;
        recordSmallest(await runCases(arbitrary, operationSeed(seed, `${operationId} ${kind}`), cases, judgeCase), seed, quoted);
      }
    });
  }
});
