// Fields a response carries that the document does not declare, as observations of additive drift: the
// document's objects are open, so the drift report lists them as "additive" and no test fails on them.
import type { ContractValidators } from '../../openapi/validators.ts';
import { undeclaredFields } from '../../report/drift-additive.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { Observation } from '../core/observation.ts';

export function additiveObservations(validators: ContractValidators, res: ApiResponse): Array<Observation<`additive.${string}`>> {
  const key = validators.responseKey(res.operation, res.status);
  const schema = key === undefined ? undefined : res.operation.responses[key]?.content?.['application/json']?.schema;
  const body = schema && res.mediaType === 'application/json' ? res.json() : undefined;
  if (body === undefined) return [];
  return undeclaredFields(schema, body, validators.doc).map((field) => ({
    id: `additive.${res.operationId}.${field.path}`,
    section: field.section ?? res.operation.section,
    operation: res.operation.label,
    item: `undeclared field ${field.path} in the ${res.status} response`,
    observed: field.shapes.length === 1 ? field.shapes[0]! : { variants: field.shapes },
    evidence: res.evidence(),
  }));
}
