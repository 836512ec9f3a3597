// Bad input, generated per operation, one thing wrong at a time: each must be rejected with the statuses spec §7
// gives for bad input on that operation (400 "wrong format" and 404 "a parameter value is wrong", where listed),
// never accepted and never a 5xx. What the spec leaves to the vendor (a body that breaks the shape but not the JSON:
// its field names and types are not shown) is recorded instead of asserted.
import { test } from '../fixtures/api-test.ts';
import { matchContract } from '../judging/matchers.ts';
import { contractValidators } from '../../openapi/validators.ts';
import type { OperationId } from '../../openapi/operations.generated.ts';
import { seededFaker } from '../../fixtures/builders.ts';
import type { RequestBodies } from '../../http/request-bodies.ts';
import type { ApiClient } from '../target/client.ts';
import { needsDialog, readV2, shapeOf, stopDialog, wellFormedRequest, type RequestContext } from '../api/requests.ts';

/**
 * The well-formed request must succeed first, so a rejection of a variant is about its input alone (a vendor may,
 * for instance, refuse send before an operator is connected). Send and command get a dialog with an operator.
 */
async function readyDialog(operationId: OperationId, api: ApiClient, ctx: Omit<RequestContext, 'dialog'>, create: () => Promise<RequestContext['dialog']>) {
  if (!needsDialog(operationId)) return undefined;
  const dialog = await create();
  if (shapeOf(operationId)) await stopDialog(api, dialog!.uuid);
  const control = await api.call(operationId, wellFormedRequest(operationId, { ...ctx, dialog }));
  return { dialog, control };
}

/** What a vendor does with bodies that break the run's shape but not the JSON: its own choice, recorded. */
async function lenience(api: ApiClient, bodies: RequestBodies, operationId: OperationId, uuid: string, gotoBotId: number): Promise<Record<string, number>> {
  const shaped = operationId === 'postV2ConversationSend' ? bodies.sendLenience('dialog-contract lenience') : bodies.commandLenience(gotoBotId);
  const seen: Record<string, number> = {};
  for (const v of shaped) {
    const res = await api.call(operationId, { path: { uuid }, raw: JSON.stringify(v.body) });
    matchContract(res, {}, true);
    seen[v.what] = res.status;
  }
  return seen;
}

export function defineNegativeTests(tag: 'v1' | 'v2'): void {
  const operations = [...contractValidators().operations.values()].filter((op) => op.tags.includes(tag));
  for (const op of operations) {
    test(`${op.label} rejects bad input with the statuses §7 gives for it`, async ({
      api,
      dialogs,
      config,
      bodies,
      fake,
      precondition,
      observe,
      validators,
    }) => {
      const shape = shapeOf(op.operationId);
      const covers = {
        pairs: validators.statusesFor(op.operationId, 'bad-input').map((s) => `${op.operationId} ${s}`),
        observations: shape ? [`lenience.${shape}`] : [],
      };
      if (shape) precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', covers);
      const { variants } = await import('../api/bad-variants.ts');
      // Which parameters the document gives a format a value can break, known before any request.
      const breakable = variants(validators, op.operationId, { config, bodies }, seededFaker(0)).length > 0;
      precondition(breakable, `the document gives no parameter of ${op.label} a format a value can break, and no body that must parse`, covers);
      const ready = await readyDialog(op.operationId, api, { config, bodies }, async () => (await dialogs.create('v2-post')).dialog);
      if (ready) {
        const state = ready.control.status < 300 ? '' : ` (dialog status ${JSON.stringify((await readV2(api, ready.dialog!.uuid)).record?.status)})`;
        precondition(
          ready.control.status < 300,
          `the well-formed request was refused with ${ready.control.status}${state}: bad variants would not isolate the input`,
          covers,
        );
      }
      const cases = variants(validators, op.operationId, { config, bodies, dialog: ready?.dialog }, fake);
      const wanted = validators.statusesFor(op.operationId, 'bad-input');
      for (const v of cases) {
        const res = await api.call(op.operationId, v.options);
        matchContract(res, { status: wanted, because: `for bad input ${v.what}`, section: v.section, check: 'negative_data_rejection' }, true);
      }
      if (shape && ready) {
        const seen = await lenience(api, bodies, op.operationId, ready.dialog!.uuid, config.gotoBotId);
        observe(op, {
          id: `lenience.${shape}`,
          section: '4.2',
          item: `status for bodies that break the ${shape} shape but not the JSON (names and types not shown)`,
          observed: seen,
        });
      }
    });
  }
}
