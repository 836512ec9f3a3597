// Bad variants of an operation's well-formed request, one thing wrong at a time, each value from the generated inputs'
// ways of breaking a format (fixtures/generated-inputs.ts): what contract/shared/negative-tests.ts sends. Apart from
// it so that fast-check loads in the workers that send them, never in Playwright's runner, which only lists the tests.
import fc from 'fast-check';
import type { Faker } from '@faker-js/faker';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ContractValidators } from '../../openapi/validators.ts';
import { resolvePointer, type SchemaObject } from '../../openapi/document.ts';
import type { OperationId } from '../../openapi/operations.generated.ts';
import { neverIssued, notIntegers, notIsoDates, notJson, notUuids, oneOfEach } from '../../fixtures/generated-inputs.ts';
import type { CallOptions } from '../target/client.ts';
import { jsonBodyOf, shapeOf, wellFormedRequest, type RequestContext } from './requests.ts';

type ParameterObject = OpenAPIV3_1.ParameterObject;

export type Variant = { what: string; options: CallOptions; section: string };

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
export function variants(validators: ContractValidators, operationId: OperationId, ctx: RequestContext, faker: Faker): Variant[] {
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
