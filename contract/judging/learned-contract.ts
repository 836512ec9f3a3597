// `--contract-from BASELINE`: what the vendor did in a saved run becomes asserted in this one. The baseline's
// observations give an overlay (report/overlay.ts); applied to the document, with the values it saw made an enum, it is
// a second contract. An answer the project's document accepts and this one refuses is a learned-contract failure:
// recorded apart from spec breaches (id prefix "learned.", severity "learned" in the drift report).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContractValidators } from '../../openapi/validators.ts';
import { REPORTS_DIR } from '../core/env.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import type { Contracts } from '../core/api-response.ts';
import { loadDocument } from '../../openapi/document.ts';

const file = (reportsDir = REPORTS_DIR) => join(reportsDir, 'run', 'learned-contract.json');

/** In the runner, before any worker starts: the learned document of the baseline, for every worker to read. */
export async function writeLearnedContract(baseline: string, reportsDir: string): Promise<void> {
  // Loaded here, not imported: every worker loads this module to read what this writes, and the baselines', overlay's
  // and learned document's modules (the YAML library with them) would cost each a tenth of a second for nothing.
  const [{ readBaseline }, { observedOverlay }, { applyOverlay, asLearnedContract }] = await Promise.all([
    import('../core/baselines.ts'),
    import('../../report/overlay.ts'),
    import('../../report/learned-document.ts'),
  ]);
  const saved = readBaseline(baseline);
  const { document } = await applyOverlay(observedOverlay(saved.items, saved.run ?? null), loadDocument());
  mkdirSync(join(reportsDir, 'run'), { recursive: true });
  writeFileSync(file(reportsDir), JSON.stringify({ baseline: saved.name, document: asLearnedContract(document) }));
}

/** The learned contract of this run (written by global setup), or null when it has none (no CONTRACT_FROM). */
export function readLearnedContract(config: Pick<SuiteConfig, 'contractFrom'>): Contracts['learned'] {
  if (!config.contractFrom || !existsSync(file())) return null;
  const { baseline, document } = JSON.parse(readFileSync(file(), 'utf8')) as { baseline: string; document: ContractValidators['doc'] };
  return { baseline, validators: new ContractValidators(document) };
}
