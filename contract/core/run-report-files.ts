// The names of what the run reporter writes (its learned document: OBSERVED + .overlay.yaml and .openapi.yaml), apart from the reporter: the main command and the scripts that read its
// files need the names, not the reporter's module graph (half a second of every command's start).

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

/** Set by the main command (scripts/contract.ts) for the Playwright it runs: it prints the run's verdict line itself. */
export const MAIN_COMMAND_ENV = 'DIALOG_CONTRACT_MAIN';
