// The names of what the run reporter and the run's end write (the learned document: OBSERVED + .overlay.yaml and
// .openapi.yaml; the HAR, the coverage), apart from the modules that write them: the main command and the scripts that
// read the files need the names, not those modules' graph (a second of the main command's start, before it).

export const OBSERVED = 'observed';
export const OBSERVED_OVERLAY = `${OBSERVED}.overlay.yaml`;
export const OBSERVED_DOCUMENT = `${OBSERVED}.openapi.yaml`;

/** Files the run reporter writes: removed before a run starts, so none of them can outlive the run that wrote it. */
export const RUN_REPORTS = [
  'fingerprint.json',
  'drift.json',
  'drift.md',
  'drift.html',
  'failures.json',
  'summary.md',
  'tickets',
  OBSERVED_OVERLAY,
  OBSERVED_DOCUMENT,
];

/** Every request of the run and its answer, secrets removed (HAR 1.2): the run's end writes it (contract/run/run-end.ts). */
export const EXCHANGES_HAR = 'exchanges.har';
/** What the run's end found judging its HAR as `npm run judge` does, each failure with its check (failures.json merges them). */
export const JOURNAL_JUDGED = 'journal-judged.json';
/** The files the run's end writes (global setup removes an earlier run's). */
export const RUN_END_FILES = ['coverage.json', 'coverage.html', EXCHANGES_HAR, JOURNAL_JUDGED];

/** Set by the main command (scripts/contract.ts) for the Playwright it runs: it prints the run's verdict line itself. */
export const MAIN_COMMAND_ENV = 'DIALOG_CONTRACT_MAIN';
