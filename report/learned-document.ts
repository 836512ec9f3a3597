// The learned document: the project's OpenAPI document with a run's overlay (report/overlay.ts) applied by
// openapi-format, the most used and most often released Overlay 1.0 implementation on npm (openapi-overlays-js has
// one release). An action that matches nothing in the document is reported: the overlay must apply cleanly.
// No I/O: callers hand in the base document (openapi/document.ts loadDocument) and write the texts.
import { openapiOverlay } from 'openapi-format/utils/overlay.js';
import { stringify } from 'yaml';
import type { FingerprintItem, RunMeta } from '../lib/fingerprint.ts';
import type { Document } from '../openapi/document.ts';
import { observedOverlay, type Overlay, type OverlayAction } from './overlay.ts';

export interface AppliedOverlay {
  document: Document;
  /** Actions whose target matched nothing. */
  unused: OverlayAction[];
}

export async function applyOverlay(overlay: Overlay, base: Document): Promise<AppliedOverlay> {
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

/** The learned document's two files: their names, and each file's text by name. */
export interface LearnedDocumentFiles {
  overlay: string;
  document: string;
  texts: Record<string, string>;
}

/**
 * `<name>.overlay.yaml` and `<name>.openapi.yaml` (the base with it applied), from a run's or a baseline's items.
 * They belong in a folder beside openapi/: the overlay extends ../openapi/dialog-bot.openapi.yaml.
 */
export async function learnedDocumentFiles(
  name: string,
  items: readonly FingerprintItem[],
  run: Pick<RunMeta, 'startedAt' | 'target'> | null,
  base: Document,
): Promise<LearnedDocumentFiles> {
  const overlay = observedOverlay(items, run);
  // No YAML anchors: the same value written twice is written out twice, as a reader expects.
  const yaml = (value: unknown) => stringify(value, { aliasDuplicateObjects: false });
  const files = { overlay: `${name}.overlay.yaml`, document: `${name}.openapi.yaml` };
  return { ...files, texts: { [files.overlay]: yaml(overlay), [files.document]: yaml((await applyOverlay(overlay, base)).document) } };
}
