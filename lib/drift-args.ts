// Arguments of `npm run contract`: the baseline switches are ours, everything else goes to `playwright test` as it
// is. Pure, so the rules are unit-tested; scripts/contract.ts does the I/O.

export interface ContractArgs {
  /** NAME (baselines/NAME.json) or a fingerprint file to compare with. */
  baseline?: string;
  strict: boolean;
  playwright: string[];
}

/** A mistake in the switches: one line, the wrapper exits 2. */
export class ArgsError extends Error {
  override name = 'ArgsError';
}

/** `defaults` come from BASELINE / STRICT_BASELINE; the switches override them. */
export function parseContractArgs(argv: readonly string[], defaults: { baseline?: string; strict: boolean }): ContractArgs {
  const out: ContractArgs = { ...defaults, playwright: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--baseline' || arg.startsWith('--baseline=')) {
      const value = arg === '--baseline' ? argv[++i] : arg.slice('--baseline='.length);
      if (!value || value.startsWith('-')) throw new ArgsError('--baseline needs a NAME (baselines/NAME.json) or a fingerprint .json file');
      out.baseline = value;
    } else if (arg === '--strict') {
      out.strict = true;
    } else {
      out.playwright.push(arg);
    }
  }
  if (out.strict && !out.baseline) throw new ArgsError('--strict needs a baseline to compare with: add --baseline NAME or set BASELINE');
  return out;
}
