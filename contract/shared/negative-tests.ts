// Malformed input, generated per operation: each must be rejected with a documented 4xx, never accepted and never
// a 5xx (spec §7: 400 for a wrong format, 404 for a wrong parameter value).
import { test, expect } from '../fixtures.ts';
import { contractValidators } from '../../openapi/validators.ts';
import { brokenJsonBodies, notIntegers, notIsoDates, notUuids } from '../../fixtures/builders.ts';
import type { CallOptions } from '../client.ts';
import type { Faker } from '@faker-js/faker';
import { stopDialog } from '../steps.ts';
import { NEEDS_DIALOG, wellFormedRequest, type RequestContext } from './requests.ts';

/** The documented rejections an authenticated request can get for bad input: every documented 4xx but 401. */
export function rejectionStatuses(operationId: string): number[] {
  return contractValidators()
    .documentedStatuses(operationId)
    .filter((s) => /^4\d\d$/.test(s) && s !== '401')
    .map(Number);
}

type Variant = { what: string; options: CallOptions; status?: number[]; section: string };

/** Bad variants of one operation's well-formed request. */
function variants(operationId: string, ctx: RequestContext, faker: Faker): Variant[] {
  const base = wellFormedRequest(operationId, ctx);
  const withQuery = (name: string, value: string) => ({ ...base, query: { ...base.query, [name]: value } });
  const withPath = (name: string, value: string) => ({ ...base, path: { ...base.path, [name]: value } });
  const out: Variant[] = [];
  switch (operationId) {
    case 'getV1Conversations':
    case 'getV2Conversations':
      // 400 is documented for exactly this: a parameter with the wrong format.
      for (const name of ['BotID', 'PageNumber', 'PageCount']) {
        for (const v of notIntegers(faker)) out.push({ what: `${name}=${v}`, options: withQuery(name, v), status: [400], section: '7' });
      }
      for (const name of ['CreatedFrom', 'CreatedTo', 'UpdatedFrom', 'UpdatedTo']) {
        for (const v of notIsoDates(faker)) out.push({ what: `${name}=${v}`, options: withQuery(name, v), status: [400], section: '4.1' });
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
    case 'postV2ConversationCommand': {
      for (const v of notUuids(faker).slice(0, 2)) out.push({ what: `uuid=${v}`, options: withPath('uuid', v), section: '7' });
      // A malformed request body: 400 is documented for send and command.
      for (const raw of brokenJsonBodies(faker)) out.push({ what: `body ${JSON.stringify(raw)}`, options: { ...base, json: undefined, raw }, status: [400], section: '4.2' });
      const bodies: unknown[] =
        operationId === 'postV2ConversationSend'
          ? [{}, [], 'text', 42, null, { text: faker.number.int() }, { text: {} }]
          : [{}, [], { command: 'goto' }, { command: faker.lorem.word(), bot_id: ctx.config.gotoBotId }, { command: 'goto', bot_id: faker.lorem.word() }];
      for (const body of bodies) out.push({ what: `body ${JSON.stringify(body)}`, options: { ...base, json: undefined, raw: JSON.stringify(body) }, status: [400], section: '4.2' });
      break;
    }
  }
  return out;
}

export function defineNegativeTests(tag: 'v1' | 'v2'): void {
  const operations = [...contractValidators().operations.values()].filter((op) => op.tags.includes(tag));
  for (const op of operations) {
    test(`${op.label} rejects malformed input with a documented 4xx`, async ({ api, dialogs, config, fake }) => {
      let dialog = undefined;
      if (NEEDS_DIALOG.has(op.operationId)) {
        dialog = (await dialogs.create('v2-post')).dialog;
        // In the operator state a well-formed send would succeed, so a rejection is about the input alone.
        if (op.operationId === 'postV2ConversationSend') await stopDialog(api, dialog.uuid);
      }
      const cases = variants(op.operationId, { config, dialog }, fake);
      expect(cases.length, `${op.label}: no malformed variants defined`).toBeGreaterThan(0);
      for (const v of cases) {
        const res = await api.call(op.operationId, v.options);
        await expect.soft(res).toMatchContract({ status: v.status ?? rejectionStatuses(op.operationId), because: `for malformed input ${v.what}`, section: v.section });
      }
    });
  }
}
