// Bad input, generated per operation, one thing wrong at a time: each must be rejected with the statuses spec §7
// gives for bad input on that operation (400 "wrong format" and 404 "a parameter value is wrong", where listed),
// never accepted and never a 5xx. What the spec leaves to the vendor (a body that breaks the shape but not the JSON:
// its field names and types are not shown) is recorded instead of asserted.
import { test, expect } from '../api-test.ts';
import { contractValidators } from '../../openapi/validators.ts';
import { brokenJsonBodies, notIntegers, notIsoDates, notUuids } from '../../fixtures/builders.ts';
import type { RequestBodies } from '../../http/request-bodies.ts';
import type { ApiClient, CallOptions } from '../client.ts';
import type { Faker } from '@faker-js/faker';
import { NEEDS_DIALOG, readV2, shapeOf, stopDialog, wellFormedRequest, type RequestContext } from '../requests.ts';

type Variant = { what: string; options: CallOptions; section: string };

/** Bad variants of one operation's well-formed request. */
function variants(operationId: string, ctx: RequestContext, faker: Faker): Variant[] {
  const base = wellFormedRequest(operationId, ctx);
  const withQuery = (name: string, value: string) => ({ ...base, query: { ...base.query, [name]: value } });
  const withPath = (name: string, value: string) => ({ ...base, path: { ...base.path, [name]: value } });
  const withRaw = (raw: string) => ({ ...base, json: undefined, raw });
  const out: Variant[] = [];
  switch (operationId) {
    case 'getV1Conversations':
    case 'getV2Conversations':
      for (const name of ['BotID', 'PageNumber', 'PageCount']) {
        for (const v of notIntegers(faker)) out.push({ what: `${name}=${v}`, options: withQuery(name, v), section: '7' });
      }
      for (const name of ['CreatedFrom', 'CreatedTo', 'UpdatedFrom', 'UpdatedTo']) {
        for (const v of notIsoDates(faker)) out.push({ what: `${name}=${v}`, options: withQuery(name, v), section: '4.1' });
      }
      break;
    case 'getV1Conversation':
      for (const v of notIntegers(faker)) out.push({ what: `id=${v}`, options: withPath('id', v), section: '7' });
      break;
    case 'getV1File':
    case 'getV2File':
      for (const v of notIntegers(faker)) out.push({ what: `fileId=${v}`, options: withPath('fileId', v), section: '7' });
      break;
    case 'getV1DialogCreate':
    case 'getV2DialogCreate':
    case 'postV2DialogCreate':
      // Malformed variables are not here: whether they are rejected is not shown, a probe records it.
      for (const v of notIntegers(faker)) out.push({ what: `BotID=${v}`, options: withPath('BotID', v), section: '7' });
      break;
    case 'getV2Conversation':
    case 'postV2ConversationStart':
    case 'postV2ConversationStop':
      for (const v of notUuids(faker)) out.push({ what: `uuid=${v}`, options: withPath('uuid', v), section: '7' });
      break;
    case 'postV2ConversationSend':
    case 'postV2ConversationCommand':
      for (const v of notUuids(faker).slice(0, 2)) out.push({ what: `uuid=${v}`, options: withPath('uuid', v), section: '7' });
      // The body is required (§4.2) and 400 is documented for a malformed request: no body, and JSON that cannot be parsed.
      out.push({ what: 'no body', options: withRaw(''), section: '4.2' });
      for (const raw of brokenJsonBodies(faker)) out.push({ what: `body ${JSON.stringify(raw)}`, options: withRaw(raw), section: '4.2' });
      if (operationId === 'postV2ConversationCommand') {
        // A target bot no bot can be: a wrong parameter value whatever the field's type.
        for (const v of ctx.bodies.commandWrongBot()) out.push({ what: `body with ${v.what}`, options: { ...base, json: v.body }, section: '7' });
      }
      break;
  }
  return out;
}

/**
 * The well-formed request must succeed first, so a rejection of a variant is about its input alone (a vendor may,
 * for instance, refuse send before an operator is connected). Send and command get a dialog with an operator.
 */
async function readyDialog(operationId: string, api: ApiClient, ctx: Omit<RequestContext, 'dialog'>, create: () => Promise<RequestContext['dialog']>) {
  if (!NEEDS_DIALOG.has(operationId)) return undefined;
  const dialog = await create();
  if (shapeOf(operationId)) await stopDialog(api, dialog!.uuid);
  const control = await api.call(operationId, wellFormedRequest(operationId, { ...ctx, dialog }));
  return { dialog, control };
}

/** What a vendor does with bodies that break the run's shape but not the JSON: its own choice, recorded. */
async function lenience(api: ApiClient, bodies: RequestBodies, operationId: string, uuid: string, gotoBotId: number): Promise<Record<string, number>> {
  const shaped = operationId === 'postV2ConversationSend' ? bodies.sendLenience('dialog-contract lenience') : bodies.commandLenience(gotoBotId);
  const seen: Record<string, number> = {};
  for (const v of shaped) {
    const res = await api.call(operationId, { path: { uuid }, raw: JSON.stringify(v.body) });
    await expect.soft(res).toMatchContract();
    seen[v.what] = res.status;
  }
  return seen;
}

export function defineNegativeTests(tag: 'v1' | 'v2'): void {
  const operations = [...contractValidators().operations.values()].filter((op) => op.tags.includes(tag));
  for (const op of operations) {
    test(`${op.label} rejects bad input with the statuses §7 gives for it`, async ({ api, dialogs, config, bodies, fake, precondition, observe, validators }) => {
      const shape = shapeOf(op.operationId);
      const covers = { pairs: validators.statusesFor(op.operationId, 'bad-input').map((s) => `${op.operationId} ${s}`), observations: shape ? [`lenience.${shape}`] : [] };
      if (shape) precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', covers);
      const ready = await readyDialog(op.operationId, api, { config, bodies }, async () => (await dialogs.create('v2-post')).dialog);
      if (ready) {
        const state = ready.control.status < 300 ? '' : ` (dialog status ${JSON.stringify((await readV2(api, ready.dialog!.uuid)).record?.status)})`;
        precondition(ready.control.status < 300, `the well-formed request was refused with ${ready.control.status}${state}: bad variants would not isolate the input`, covers);
      }
      const cases = variants(op.operationId, { config, bodies, dialog: ready?.dialog }, fake);
      expect(cases.length, `${op.label}: no bad-input variants defined`).toBeGreaterThan(0);
      const wanted = validators.statusesFor(op.operationId, 'bad-input');
      for (const v of cases) {
        const res = await api.call(op.operationId, v.options);
        await expect.soft(res).toMatchContract({ status: wanted, because: `for bad input ${v.what}`, section: v.section });
      }
      if (shape && ready) {
        const seen = await lenience(api, bodies, op.operationId, ready.dialog!.uuid, config.gotoBotId);
        observe(op, { id: `lenience.${shape}`, section: '4.2', item: `status for bodies that break the ${shape} shape but not the JSON (names and types not shown)`, observed: seen });
      }
    });
  }
}
