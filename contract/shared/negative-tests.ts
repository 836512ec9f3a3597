// Bad input, generated per operation, one thing wrong at a time: each must be rejected with the statuses spec §7
// gives for bad input on that operation (400 "wrong format" and 404 "a parameter value is wrong", where listed),
// never accepted and never a 5xx. What the spec leaves to the vendor (a body that breaks the shape but not the JSON:
// its field names and types are not shown) is recorded instead of asserted.
import { test } from '../fixtures/api-test.ts';
import { matchContract } from '../judging/matchers.ts';
import type { OpenAPIV3_1 } from 'openapi-types';
import { contractValidators, type ContractValidators } from '../../openapi/validators.ts';
import { resolvePointer, type SchemaObject } from '../../openapi/document.ts';
import type { OperationId } from '../../openapi/operations.generated.ts';
import fc from 'fast-check';
import { seededFaker } from '../../fixtures/builders.ts';
import { neverIssued, notIntegers, notIsoDates, notJson, notUuids, oneOfEach } from '../../fixtures/generated-inputs.ts';
import type { RequestBodies } from '../../http/request-bodies.ts';
import type { ApiClient, CallOptions } from '../target/client.ts';
import type { Faker } from '@faker-js/faker';
import { jsonBodyOf, needsDialog, readV2, shapeOf, stopDialog, wellFormedRequest, type RequestContext } from '../api/requests.ts';

type ParameterObject = OpenAPIV3_1.ParameterObject;
type Variant = { what: string; options: CallOptions; section: string };

/**
 * Values that break a parameter's documented format, by its schema, one of each way the generated inputs break it
 * (fixtures/generated-inputs.ts): not an integer, not a UUID, not an ISO 8601 date. None for a schema whose wrong
 * form is not certain: any string, a boolean (how a vendor reads "yes" is not shown), a type not shown at all. A
 * broken identifier is made from the run's bot or from one no vendor has issued: a lenient parser that reads its
 * digits names nothing of another's.
 */
function badValues(schema: SchemaObject, parameter: ParameterObject, botId: number, seed: number): string[] {
  const formats = [schema, ...((schema.anyOf as SchemaObject[] | undefined) ?? [])].map((s) => s.format);
  const names = (parameter as ParameterObject & { 'x-identifies'?: string })['x-identifies'];
  if (schema.type === 'integer') return oneOfEach(notIntegers(names === 'bot' ? fc.constant(botId) : names ? neverIssued : fc.nat(1000), !names), seed);
  if (schema.format === 'uuid') return oneOfEach(notUuids, seed);
  if (formats.length > 1 && formats.every((f) => f === 'date' || f === 'date-time' || f === 'iso-date-time')) return oneOfEach(notIsoDates, seed);
  return [];
}

/** A parameter's schema with its $ref followed. */
function schemaOf(validators: ContractValidators, parameter: ParameterObject): SchemaObject {
  const schema = (parameter.schema ?? {}) as SchemaObject;
  return typeof schema.$ref === 'string' ? (resolvePointer(validators.doc, schema.$ref) as SchemaObject) : schema;
}

/** Bad variants of one operation's well-formed request: one parameter wrong at a time, then a body that is no JSON. */
function variants(validators: ContractValidators, operationId: OperationId, ctx: RequestContext, faker: Faker): Variant[] {
  const base = wellFormedRequest(operationId, ctx);
  const seed = faker.number.int({ max: 2 ** 31 - 2 });
  const out: Variant[] = [];
  for (const parameter of validators.operation(operationId).parameters) {
    const schema = schemaOf(validators, parameter);
    const section = String(schema['x-spec-section'] ?? '7');
    const at = parameter.in === 'path' ? 'path' : 'query';
    for (const value of badValues(schema, parameter, ctx.config.botId, seed)) {
      out.push({ what: `${parameter.name}=${value}`, options: { ...base, [at]: { ...base[at], [parameter.name]: value } }, section });
    }
  }
  // A required JSON body (§4.2 send and command) that is missing, or that cannot be parsed: a malformed request.
  const body = jsonBodyOf(operationId);
  if (body && validators.operation(operationId).requestBody?.required) {
    const ref = (body.schema as SchemaObject | undefined)?.$ref;
    const section = String((typeof ref === 'string' ? (resolvePointer(validators.doc, ref) as SchemaObject) : {})['x-spec-section'] ?? '7');
    const raw = (text: string) => ({ ...base, json: undefined, raw: text });
    out.push({ what: 'no body', options: raw(''), section });
    for (const text of oneOfEach(notJson(fc.constant(JSON.stringify(base.json ?? {}))), seed))
      out.push({ what: `body ${JSON.stringify(text)}`, options: raw(text), section });
  }
  // A goto to a bot no bot can be: a wrong parameter value whatever the run's command shape types it as.
  if (shapeOf(operationId) === 'command') {
    for (const v of ctx.bodies.commandWrongBot()) out.push({ what: `body with ${v.what}`, options: { ...base, json: v.body }, section: '7' });
  }
  return out;
}

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
