// `npm run generate:api`: writes openapi/operations.generated.ts from the document (openapi/generate.ts renders it).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { commandLineOrExit } from '../config/command-line.ts';
import { GENERATED_FILE, operationsModule } from '../openapi/generate.ts';

commandLineOrExit({
  script: 'generate:api',
  usage: [''],
  summary:
    'Writes openapi/operations.generated.ts from openapi/dialog-bot.openapi.yaml: the OperationId union and each\n' +
    "operation's method, path and label, so an operationId is checked by the compiler. Run it after editing the\n" +
    'document; a unit test (openapi/generate.test.ts) fails while the file is out of date.',
  options: {},
  environment: [],
  exit: '0 written; 1 the document cannot be read; 2 bad input.',
  examples: ['npm run generate:api && git diff openapi/operations.generated.ts'],
});
writeFileSync(GENERATED_FILE, operationsModule());
console.log(`generate:api: wrote ${relative(process.cwd(), GENERATED_FILE)}`);
