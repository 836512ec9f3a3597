// The learned document: the project's OpenAPI document with a run's overlay (lib/overlay.ts) applied by
// openapi-format, the most used and most often released Overlay 1.0 implementation on npm (openapi-overlays-js has
// one release). An action that matches nothing in the document is reported: the overlay must apply cleanly.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openapiOverlay } from 'openapi-format';
import { stringify } from 'yaml';
import type { FingerprintItem, RunMeta } from '../lib/fingerprint.ts';
import { observedOverlay, type Overlay, type OverlayAction } from '../lib/overlay.ts';
import { loadDocument, type Document } from './document.ts';

export interface AppliedOverlay {
  document: Document;
  /** Actions whose target matched nothing. */
  unused: OverlayAction[];
}

export async function applyOverlay(overlay: Overlay, base: Document = loadDocument()): Promise<AppliedOverlay> {
  const copy = JSON.parse(JSON.stringify(base)) as Document;
  const result = await openapiOverlay(copy as never, { overlaySet: overlay as never });
  return { document: result.data as unknown as Document, unused: (result.resultData?.unusedActions ?? []) as OverlayAction[] };
}

/**
 * The learned document as a contract (--contract-from): the values a run saw (`x-observed.values`) become an enum,
 * so an answer outside them fails. Only for holding a later run to an earlier one; the overlay itself stays open.
 */
export function asLearnedContract(document: Document): Document {
  const copy = JSON.parse(JSON.stringify(document)) as Document;
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const values = ((node as Record<string, unknown>)['x-observed'] as { values?: unknown } | undefined)?.values;
    if (Array.isArray(values)) (node as Record<string, unknown>).enum = values;
    Object.values(node).forEach(walk);
  };
  walk(copy);
  return copy;
}

/**
 * Writes `<name>.overlay.yaml` and `<name>.openapi.yaml` (the document with it applied) into `dir`, from a run's or
 * a baseline's items; returns the two file names. `dir` is a folder beside openapi/: the overlay extends
 * ../openapi/dialog-bot.openapi.yaml.
 */
export async function writeLearnedDocument(dir: string, name: string, items: readonly FingerprintItem[], run: Pick<RunMeta, 'startedAt' | 'target'> | null): Promise<{ overlay: string; document: string }> {
  const overlay = observedOverlay(items, run);
  const files = { overlay: `${name}.overlay.yaml`, document: `${name}.openapi.yaml` };
  // No YAML anchors: the same value written twice is written out twice, as a reader expects.
  writeFileSync(join(dir, files.overlay), stringify(overlay, { aliasDuplicateObjects: false }));
  writeFileSync(join(dir, files.document), stringify((await applyOverlay(overlay)).document, { aliasDuplicateObjects: false }));
  return files;
}
