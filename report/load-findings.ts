// What the k6 runs found (size limits, the rate ladder) joins the contract run's fingerprint only when it is about
// the same target and recent: an old file from another target must never pass for this run's finding. Pure.
import type { FingerprintFile, FingerprintItem } from '../lib/fingerprint.ts';

export interface LoadFile {
  /** File name under reports/load/, for the notes. */
  name: string;
  content: FingerprintFile;
}

export interface LoadFindings {
  items: FingerprintItem[];
  /** Item id → "from the k6 run of DATE (file)", for the item's evidence. */
  origin: Map<string, string>;
  /** Why each file left out was left out. */
  skipped: string[];
}

export function freshLoadFindings(files: readonly LoadFile[], target: string, maxAgeHours: number, nowMs: number): LoadFindings {
  const out: LoadFindings = { items: [], origin: new Map(), skipped: [] };
  for (const { name, content } of [...files].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const run = content.run;
    if (!run) {
      out.skipped.push(`${name}: no run block (target and date unknown)`);
      continue;
    }
    if (run.target !== target) {
      out.skipped.push(`${name}: about ${run.target}, not ${target}`);
      continue;
    }
    const ageHours = (nowMs - Date.parse(run.startedAt)) / 3_600_000;
    if (!(ageHours <= maxAgeHours)) {
      out.skipped.push(`${name}: from ${run.startedAt}, older than LOAD_FINDINGS_MAX_AGE_H=${maxAgeHours}`);
      continue;
    }
    for (const item of content.items) {
      out.items.push(item);
      out.origin.set(item.id, `from the k6 run of ${run.startedAt} (reports/load/${name})`);
    }
  }
  return out;
}
