// Spec §5.2: a missing or wrong login or password yields 401, on every V1 and V2 endpoint.
import { test } from '../fixtures/api-test.ts';
import { matchContract } from '../judging/matchers.ts';
import { contractValidators } from '../../openapi/validators.ts';
import { needsDialog, shapeOf, wellFormedRequest } from '../api/requests.ts';

export function defineAuthTests(tag: 'v1' | 'v2'): void {
  const operations = [...contractValidators().operations.values()].filter((op) => op.tags.includes(tag) && op.needsBasicAuth);
  for (const op of operations) {
    test(`${op.label} rejects a missing or a wrong password with 401`, async ({ anonymousApi, wrongPasswordApi, dialogs, config, bodies, precondition }) => {
      const shape = shapeOf(op.operationId);
      // The request must be one the vendor takes with credentials: only the credentials are wrong.
      if (shape) precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', { pairs: [`${op.operationId} 401`] });
      // A real dialog, so a server that looks the dialog up before checking credentials is still seen to answer 401.
      const dialog = needsDialog(op.operationId) ? (await dialogs.create('v2-post')).dialog : undefined;
      const request = wellFormedRequest(op.operationId, { config, bodies, dialog });
      for (const [client, because] of [
        [anonymousApi, 'for a request without Authorization'],
        [wrongPasswordApi, 'for a wrong password'],
      ] as const) {
        matchContract(await client.call(op.operationId, request), { status: 401, because, section: '5.2', check: 'ignored_auth' }, true);
      }
    });
  }
}
