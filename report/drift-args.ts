// Arguments of `npm run contract`: the baseline and check switches are ours, everything else goes to `playwright test`
// as it is. Pure, so the rules are unit-tested; scripts/contract.ts does the I/O.

export interface ContractArgs {
  /** NAME (baselines/NAME.json) or a fingerprint file to compare with. */
  baseline?: string;
  strict: boolean;
  /** NAME or a fingerprint file whose learned document (its overlay) this run is held to as well. */
  contractFrom?: string;
  /** --checks a,b: only these checks (names or families); --exclude-checks c: these left out. */
  checks?: string[];
  excludeChecks?: string[];
  /** --list-checks: print the registry and run nothing. */
  listChecks: boolean;
  playwright: string[];
}

/** A mistake in the switches: one line, the wrapper exits 2. */
export class ArgsError extends Error {
  override name = 'ArgsError';
}

/** `defaults` come from BASELINE / STRICT_BASELINE; the switches override them. */
export function parseContractArgs(
  argv: readonly string[],
  defaults: { baseline?: string; strict: boolean; contractFrom?: string; checks?: string[]; excludeChecks?: string[] },
): ContractArgs {
  const out: ContractArgs = { ...defaults, listChecks: false, playwright: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const named = (['baseline', 'contract-from', 'checks', 'exclude-checks'] as const).find((name) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    if (named) {
      const value = arg === `--${named}` ? argv[++i] : arg.slice(`--${named}=`.length);
      if (named === 'checks' || named === 'exclude-checks') {
        if (!value || value.startsWith('-')) throw new ArgsError(`--${named} needs check names separated by commas (npm run contract -- --list-checks)`);
        out[named === 'checks' ? 'checks' : 'excludeChecks'] = value.split(',').map((n) => n.trim());
        continue;
      }
      if (!value || value.startsWith('-')) throw new ArgsError(`--${named} needs a NAME (baselines/NAME.json) or a fingerprint .json file`);
      if (named === 'baseline') out.baseline = value;
      else out.contractFrom = value;
    } else if (arg === '--list-checks') {
      out.listChecks = true;
    } else if (arg === '--strict') {
      out.strict = true;
    } else {
      out.playwright.push(arg);
    }
  }
  if (out.strict && !out.baseline) throw new ArgsError('--strict needs a baseline to compare with: add --baseline NAME or set BASELINE');
  return out;
}
