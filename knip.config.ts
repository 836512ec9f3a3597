// knip (npm run lint:unused, in npm test): unused files, exports and dependencies fail the run.
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    '**/*.test.ts',
    // npm run test:k6: the bundles on a real k6.
    'load/*.check.ts',
    'scripts/*.ts',
    'bench/*.ts',
    'bench/empty/*.spec.ts',
    // The k6 scripts: esbuild's entry points (load/build.ts), run by k6, not Node.
    'load/scripts/*.ts',
    // The reporter of a several-run invocation, named by path in the arguments scripts/suite-run.ts gives Playwright.
    'contract/reporters/runs-reports.ts',
    // A team's checks, loaded by path (CHECKS_MODULE): team-checks/README.md.
    'team-checks/*.ts',
  ],
  project: ['**/*.{ts,mjs}', '!dist/**', '!reports/**'],
  // System binaries: k6 runs outside this machine (load/README.md), Graphviz's dot and openssl come from Debian.
  ignoreBinaries: ['k6', 'dot', 'openssl'],
  ignoreDependencies: [
    // Modules k6 itself provides, and the build-time modules load/build.ts generates from the OpenAPI document.
    /^k6(\/|$)/,
    'generated',
    // dependency-cruiser's parser for TypeScript (it does not support TypeScript 7's compiler).
    '@swc/core',
    // Loaded by path or through createRequire (no type declarations to import): scripts/prism.ts, bench/simulator.ts.
    '@stoplight/prism-cli',
    'autocannon',
  ],
  ignoreExportsUsedInFile: true,
};

export default config;
