// What the k6 scripts need from the OpenAPI document, extracted at build time: each operation's method, path, label
// and auth, and the list envelope's fields. The scripts never hand-write a path or a schema.
import { listOperations, loadDocument, resolvePointer, type Document } from '../openapi/document.ts';
import type { OperationInfo } from '../http/request.ts';
import type { EnvelopeShape } from '../http/list-envelope.ts';

type Schema = {
  $ref?: string;
  required?: string[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  type?: string;
};

export function operationsTable(doc: Document = loadDocument()): Record<string, OperationInfo> {
  const table: Record<string, OperationInfo> = {};
  for (const op of listOperations(doc)) {
    table[op.operationId] = { operationId: op.operationId, method: op.method, path: op.path, label: op.label, basicAuth: op.needsBasicAuth };
  }
  return table;
}

/** The envelope of every operation whose 200 response is a list (an object with patternProperties items and meta). */
export function envelopeShapes(doc: Document = loadDocument()): Record<string, EnvelopeShape> {
  const resolve = (schema: Schema | undefined): Schema => (schema?.$ref ? resolve(resolvePointer(doc, schema.$ref) as Schema) : (schema ?? {}));
  const required = (schema: Schema): string[] => {
    const own = resolve(schema);
    return [...(own.required ?? []), ...(own.allOf ?? []).flatMap(required)];
  };
  const shapes: Record<string, EnvelopeShape> = {};
  for (const op of listOperations(doc)) {
    const content = (op.responses['200']?.content ?? {}) as Record<string, { schema?: Schema }>;
    const list = resolve(content['application/json']?.schema);
    const item = Object.values(list.patternProperties ?? {})[0];
    if (!item || !list.properties?.meta) continue;
    const pagination = resolve(resolve(list.properties.meta).properties?.pagination);
    shapes[op.operationId] = {
      pagination: Object.fromEntries(required(pagination).map((field) => [field, resolve(pagination.properties?.[field]).type ?? 'any'])),
      itemFields: [...new Set(required(item))],
    };
  }
  return shapes;
}
