// Import rules of the layout (README "Layout"), checked by `npm run lint:deps` in `npm test`. Folders:
//   lib/       the data models three or more layers share: the bottom layer, importing only the generated operation ids
//   openapi/   the document, its validators and response checks: the source of truth, importing only lib/'s data models
//   lib/ http/ discovery/ report/ power/ workflows/ checks/   pure logic: no Node built-in, no I/O module, shared by Node and k6
//   checks/    the registry of checks: each a pure function of evidence, importing only lib/, openapi/, http/'s envelope and redaction
//   contract/  Playwright tests and reporters; load/ k6 scripts and their Node runner; simulator/ a vendor
//   scripts/   the command-line entry points: the one place that wires several layers together
// Type-only imports are not told apart here (swc parses; TypeScript 7 is not supported by dependency-cruiser), so a
// pure module may import openapi/ (its types, and validators compiled from a document handed in).
const TEST = '\\.(test|spec)\\.ts$';
const PURE = '^(lib|http|discovery|report|power|workflows|checks|team-checks)/';
// Declaration files only type a package: they load nothing.
const TYPES_ONLY = `${TEST}|\\.d\\.ts$`;
const IO_LAYERS = '^(contract|load|simulator|scripts|bench|drift-ui)/';

/** A forbidden import: `from` may not import `to` (paths relative to the root, as regular expressions). */
const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

// contract/'s rooms, bottom to top (contract/README.md): each module may import its own room and the rooms below it,
// never one above, so a room can be read, tested and changed knowing only what lies under it.
const CONTRACT_ROOMS = ['core', 'clock', 'judging', 'target', 'api', 'fixtures', 'run', 'reporters'];
// The tests themselves: specs and their shared definitions, on top of the fixtures, beside the run's machinery.
const SPEC_ROOMS = ['shared', 'v1', 'v2', 'vertex', 'probes'];
const any = (names) => `^contract/(${names.join('|')})/`;
const roomRules = CONTRACT_ROOMS.map((room, i) => {
  const above = [...CONTRACT_ROOMS.slice(i + 1), ...SPEC_ROOMS];
  return rule(
    `contract-${room}-imports-below`,
    `contract/${room}/ may import ${i === 0 ? 'no other room' : `only ${CONTRACT_ROOMS.slice(0, i).join(', ')}`} of contract/ (its README): ${above.join(', ')} lie above it.`,
    { path: `^contract/${room}/` },
    { path: `${any(above)}|^contract/[^/]+$` },
  );
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    rule('no-circular', 'A cycle makes two modules one: merge them or move what both need.', {}, { circular: true }),
    rule(
      'openapi-imports-only-lib',
      'openapi/ is the single source of truth: everything reads it; it reads only lib/ data models (checks return failures).',
      { path: '^openapi/', pathNot: TEST },
      { path: '^(?!openapi/)(bench|config|contract|discovery|drift-ui|fixtures|http|load|power|report|scripts|simulator|workflows)/' },
    ),
    rule(
      'lib-imports-only-lib',
      'lib/ is the bottom layer: every layer imports its data models, so a lib/ module that imported config/, http/ or any other layer would make them all depend on it. Only the generated operation ids, which are data, sit below it.',
      { path: '^lib/' },
      { dependencyTypes: ['local'], pathNot: '^lib/|^openapi/operations\\.generated\\.ts$' },
    ),
    rule(
      'checks-import-only-data',
      'checks/ judges evidence handed in: it reads lib/ data models, the document and its validators (openapi/), the list envelope and the redaction of secrets (http/), never a layer that gathers evidence or writes reports, so contract/, scripts/ and a recording judge share it.',
      { path: '^checks/', pathNot: TEST },
      {
        path: '^(?!checks/|lib/|openapi/|http/(list-envelope|redact)\\.ts$)(bench|config|contract|discovery|drift-ui|fixtures|http|load|power|report|scripts|simulator|workflows)/',
      },
    ),
    rule(
      'team-checks-import-only-checks',
      "A team's checks judge the evidence they are handed, as the project's do: they read checks/ and lib/, nothing that gathers evidence or writes reports.",
      { path: '^team-checks/', pathNot: TEST },
      { path: '^(?!checks/|lib/)[^/]+/' },
    ),
    rule(
      'pure-imports-no-builtin',
      'Pure modules run in k6 and in unit tests without a server: no Node built-in.',
      { path: PURE, pathNot: TYPES_ONLY },
      { dependencyTypes: ['core'] },
    ),
    rule(
      'pure-imports-no-io-layer',
      'Pure modules import only pure modules, config/suite-config.ts and openapi/; no package entry that does I/O.',
      { path: PURE, pathNot: TYPES_ONLY },
      { path: `${IO_LAYERS}|^config/suite-version\\.ts$|^node_modules/(undici|@playwright)/|^node_modules/openapi-format/openapi-format\\.js$` },
    ),
    rule(
      'k6-scripts-import-no-node',
      'The k6 scripts run in k6, not Node: only k6 modules, pure modules and load/safety.ts.',
      { path: '^load/scripts/' },
      { path: '^(contract|scripts|simulator|bench|drift-ui|openapi)/|^config/suite-version\\.ts$|^load/(?!scripts/|safety\\.ts$)' },
    ),
    rule('k6-scripts-import-no-builtin', 'k6 has no Node built-ins.', { path: '^load/scripts/' }, { dependencyTypes: ['core'] }),
    rule('load-and-contract-apart', 'The k6 side and the Playwright side share pure modules, never each other.', { path: '^load/' }, { path: '^contract/' }),
    rule(
      'contract-imports-no-load-or-simulator',
      'The contract suite meets a vendor over HTTP only: the simulator is one vendor, started by config or scripts.',
      { path: '^contract/', pathNot: TEST },
      { path: '^(load|simulator)/' },
    ),
    rule(
      'simulator-stands-alone',
      'The simulator is a vendor: it knows the document, never the suite that tests it.',
      { path: '^simulator/' },
      { path: '^(contract|load|scripts|report|discovery|power|bench|drift-ui)/' },
    ),
    rule(
      'only-scripts-wire',
      'scripts/ are entry points: only other entry points (bench/) and tests import them.',
      { pathNot: `^(scripts|bench)/|${TEST}` },
      { path: '^scripts/' },
    ),
    rule('not-to-test', 'Test files are leaves.', { pathNot: TEST }, { path: TEST }),
    ...roomRules,
    rule(
      'contract-specs-import-no-run-machinery',
      "The tests gather evidence through the fixtures and the API room; the run's setup, end and reporters are the runner's, and one spec folder never reaches into another (shared/ is for that).",
      { path: any(SPEC_ROOMS) },
      { path: `^contract/(run|reporters)/|^contract/[^/]+$` },
    ),
    rule(
      'contract-specs-apart',
      'A spec folder imports no other spec folder but shared/, which imports none.',
      { path: '^contract/(v1|v2|vertex|probes|shared)/' },
      { path: '^contract/(v1|v2|vertex|probes)/', pathNot: '^contract/$1/' },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|reports|test-results)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    // npm run graph: one box per folder (the k6 scripts apart from load/'s Node side, each room of contract/ apart), tests and packages left out.
    reporterOptions: {
      dot: {
        collapsePattern: '^(load/scripts/|contract/[^/]+/|[^/]+/|[^/]+$)',
        filters: {
          includeOnly: {
            path: '^(openapi|http|config|contract|fixtures|load|simulator|lib|report|discovery|power|workflows|checks|team-checks|bench|scripts|drift-ui)/|^playwright\\.config\\.ts$',
          },
          exclude: { path: TEST },
        },
      },
    },
  },
};
