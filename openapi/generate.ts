// The text of openapi/operations.generated.ts, the document's operations as TypeScript (the OperationId union and
// how QA names each), so an operationId is checked by the compiler and pure code can name an operation without
// loading the document. `npm run generate:api` (scripts/generate-api.ts) writes it; openapi/generate.test.ts fails
// when the file is older than the document.
import { fileURLToPath } from 'node:url';
import { loadDocument, readOperations, type Document } from './document.ts';

export const GENERATED_FILE = fileURLToPath(new URL('./operations.generated.ts', import.meta.url));

/** The text of operations.generated.ts for a document. */
export function operationsModule(doc: Document = loadDocument()): string {
  const rows = readOperations(doc).map((op) => `  ${op.operationId}: { method: '${op.method}', path: '${op.path}', label: '${op.label}' },`);
  return [
    '// Generated from openapi/dialog-bot.openapi.yaml by `npm run generate:api` (openapi/generate.ts): do not edit.',
    '// openapi/generate.test.ts fails when the document has changed since.',
    '',
    '/** Every operation of the document, by operationId: its method, its path below /api, and the label QA names it by. */',
    'export const OPERATIONS = {',
    ...rows,
    '} as const;',
    '',
    'export type OperationId = keyof typeof OPERATIONS;',
    '',
  ].join('\n');
}
