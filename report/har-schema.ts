// The shape check of a HAR the suite writes: the HAR 1.2 JSON Schemas of the har-schema package (the ones
// har-validator uses), compiled once. A schema set of its own, apart from the document's validators (openapi/).
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import harSchemas from 'har-schema';

// ajv-formats ships CommonJS; depending on the loader its default export arrives wrapped or not.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule.default;

let validate: ValidateFunction | undefined;

/** What is wrong with a HAR's shape, one line each; empty when it is a valid HAR 1.2 log. */
export function harProblems(har: unknown): string[] {
  if (!validate) {
    // strict off: the schemas carry keywords of their own ("optional", "min") that draft-06 does not define.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addMetaSchema(draft06);
    for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
    validate = ajv.getSchema('har.json#')!;
  }
  if (validate(har)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
