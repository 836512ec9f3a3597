// Import rules of the layout (README "Layout"), checked by `npm run lint:deps` in `npm test`. Folders:
//   openapi/   the document and its validators: the source of truth, importing nothing of ours
//   lib/ http/ discovery/ report/ power/   pure logic: no Node built-in, no I/O module, shared by Node and k6
//   contract/  Playwright tests and reporters; load/ k6 scripts and their Node runner; simulator/ a vendor
//   scripts/   the command-line entry points: the one place that wires several layers together
// Type-only imports are not told apart here (swc parses; TypeScript 7 is not supported by dependency-cruiser), so a
// pure module may import openapi/ (its types, and validators compiled from a document handed in).
const TEST = '\\.(test|spec)\\.ts$';
const PURE = '^(lib|http|discovery|report|power)/';
const IO_LAYERS = '^(contract|load|simulator|scripts|bench|drift-ui)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'A cycle makes two modules one: merge them or move what both need.', from: {}, to: { circular: true } },
    {
      name: 'openapi-imports-nothing-ours',
      severity: 'error',
      comment: 'openapi/ is the single source of truth: everything reads it, it reads nothing of the suite.',
      from: { path: '^openapi/', pathNot: TEST },
      to: { path: '^(?!openapi/)(bench|config|contract|discovery|drift-ui|fixtures|http|lib|load|power|report|scripts|simulator)/' },
    },
    {
      name: 'pure-imports-no-io',
      severity: 'error',
      comment: 'Pure modules run in k6 and in unit tests without a server: no Node built-in, no module that does I/O.',
      from: { path: PURE, pathNot: TEST },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'pure-imports-no-io-layer',
      severity: 'error',
      comment: 'Pure modules import only pure modules, config/suite-config.ts and openapi/.',
      from: { path: PURE, pathNot: TEST },
      to: { path: `${IO_LAYERS}|^config/suite-version\\.ts$|^node_modules/(undici|@playwright)/` },
    },
    {
      name: 'k6-scripts-import-no-node',
      severity: 'error',
      comment: 'The k6 scripts run in k6, not Node: only k6 modules, pure modules and load/safety.ts.',
      from: { path: '^load/scripts/' },
      to: { path: `^(contract|scripts|simulator|bench|drift-ui|openapi)/|^config/suite-version\\.ts$|^load/(?!scripts/|safety\\.ts$)` },
    },
    {
      name: 'k6-scripts-import-no-builtin',
      severity: 'error',
      comment: 'k6 has no Node built-ins.',
      from: { path: '^load/scripts/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'load-and-contract-apart',
      severity: 'error',
      comment: 'The k6 side and the Playwright side share pure modules, never each other.',
      from: { path: '^load/' },
      to: { path: '^contract/' },
    },
    {
      name: 'contract-imports-no-load-or-simulator',
      severity: 'error',
      comment: 'The contract suite meets a vendor over HTTP only: the simulator is one vendor, started by config or scripts.',
      from: { path: '^contract/', pathNot: TEST },
      to: { path: '^(load|simulator)/' },
    },
    {
      name: 'simulator-stands-alone',
      severity: 'error',
      comment: 'The simulator is a vendor: it knows the document, never the suite that tests it.',
      from: { path: '^simulator/' },
      to: { path: '^(contract|load|scripts|report|discovery|power|bench|drift-ui)/' },
    },
    {
      name: 'only-scripts-wire',
      severity: 'error',
      comment: 'scripts/ are entry points: only other entry points (bench/) and tests import them.',
      from: { pathNot: `^(scripts|bench)/|${TEST}` },
      to: { path: '^scripts/' },
    },
    { name: 'not-to-test', severity: 'error', comment: 'Test files are leaves.', from: { pathNot: TEST }, to: { path: TEST } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|reports|test-results)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    // npm run graph: one box per folder (the k6 scripts apart from load/'s Node side), tests and packages left out.
    reporterOptions: {
      dot: {
        collapsePattern: '^(load/scripts/|[^/]+/|[^/]+$)',
        filters: { includeOnly: { path: '^(openapi|http|config|contract|fixtures|load|simulator|lib|report|discovery|power|bench|scripts|drift-ui)/|^playwright\\.config\\.ts$' }, exclude: { path: TEST } },
      },
    },
  },
};
