// `npm run lint:openapi`, second half: the document parses and every validator compiles (redocly checks the rest).
import { performance } from 'node:perf_hooks';
import { listUnknowns } from './document.ts';
import { ContractValidators } from './validators.ts';

try {
  const started = performance.now();
  const validators = new ContractValidators();
  const compiled = validators.compileAll();
  const ms = performance.now() - started;
  console.log(
    `openapi: ${validators.operations.size} operations, ${compiled} response validators compiled in ${ms.toFixed(0)} ms, ` +
      `${listUnknowns(validators.doc).length} "not shown" items marked`,
  );
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
