// The learned document: what a run observed where the specification says "not shown", written as an OpenAPI
// Overlay 1.0 over openapi/dialog-bot.openapi.yaml, for the vendor (a patch to their specification) and for tools
// (a mock server, a client generator). Pure: fingerprint items in, overlay out.
//
// It only adds. Open types stay open: observed status values go into `examples` and `x-observed`, never `enum`;
// error bodies get a schema for the content type seen, beside the document's `*/*`; a learned body shape requires
// its fields but allows others. An item the run could not observe is left alone, with no guess written.
import { placeholderPaths, renderBody } from '../http/body-template.ts';
import type { FingerprintItem, RunMeta } from '../lib/fingerprint.ts';
import { stableStringify } from '../lib/json.ts';
import { ObservedItems, type CallPlace, type ObservationId, type SizeLimitId } from '../lib/observations.ts';
import type { Shape } from '../lib/shape.ts';
import { OPERATIONS } from '../openapi/operations.generated.ts';

/** Where an action's content comes from: the observations, the run, the spec sections it fills. */
export interface ObservedMeta {
  observations: string[];
  runStartedAt: string;
  target: string;
  sections: string[];
}

export interface OverlayAction {
  target: string;
  description: string;
  update: Record<string, unknown>;
  'x-observed': ObservedMeta;
}

export interface Overlay {
  overlay: '1.0.0';
  info: { title: string; version: string };
  extends: string;
  actions: OverlayAction[];
}

type Schema = Record<string, unknown>;
type Items = ObservedItems;

/** The base document as seen from reports/, where the overlay is written. */
export const OVERLAY_EXTENDS = '../openapi/dialog-bot.openapi.yaml';

const ERROR_RESPONSES = [
  [400, 'BadRequest'],
  [401, 'Unauthorized'],
  [403, 'Forbidden'],
  [404, 'NotFound'],
] as const;

/** JSON Schema of a recorded shape (lib/shape.ts): types only, no field required, nothing closed. */
export function shapeSchema(shape: Shape): Schema {
  if (Array.isArray(shape))
    return {
      type: 'array',
      ...(shape.length === 1 ? { items: shapeSchema(shape[0]!) } : shape.length > 1 ? { items: { anyOf: shape.map(shapeSchema) } } : {}),
    };
  if (typeof shape === 'object') return { type: 'object', properties: Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, shapeSchema(v)])) };
  if (shape === 'string(uuid)') return { type: 'string', format: 'uuid' };
  if (shape.startsWith('string')) return { type: 'string' };
  if (shape === 'text') return { type: 'string' };
  if (['integer', 'number', 'boolean', 'null'].includes(shape)) return { type: shape };
  return {};
}

/**
 * JSON Schema of a body template (`{"message":{"text":"{{text}}"}}`): each placeholder typed as it lands, each
 * literal as its constant, every field of the template required; `maxLength` on the text when a limit is known.
 */
export function templateSchema(template: string, maxTextLength?: number): Schema {
  const placeholders = placeholderPaths(template);
  const at = (path: readonly (string | number)[]) => placeholders.find((p) => JSON.stringify(p.path) === JSON.stringify(path));
  const walk = (node: unknown, path: (string | number)[]): Schema => {
    const placeholder = at(path);
    if (placeholder) {
      const kind = placeholder.kind === 'number' ? 'integer' : 'string';
      return { type: kind, ...(placeholder.name === 'text' && maxTextLength !== undefined ? { maxLength: maxTextLength } : {}) };
    }
    if (node && typeof node === 'object' && !Array.isArray(node)) {
      const entries = Object.entries(node);
      return { type: 'object', required: entries.map(([k]) => k), properties: Object.fromEntries(entries.map(([k, v]) => [k, walk(v, [...path, k])])) };
    }
    return { const: node };
  };
  return walk(renderBody(template, { text: 'text', botId: 1 }), []);
}

/** A limit the target refuses above (not one it clamps, not one the search never reached). */
function refusedAbove(items: Items, id: SizeLimitId): number | undefined {
  const observed = items.get(id);
  return observed?.outcome === 'found' && observed.refusal === 'refused' && observed.largestAccepted !== null ? observed.largestAccepted : undefined;
}

/** One action per learned place; each builder reads the items it needs and returns nothing when none was observed. */
type Learned = { target: string; description: string; update: Record<string, unknown>; from: ObservationId[] };
type Builder = (items: Items) => Learned[];

const statusValues: Builder = (items) => {
  const seen = items.get('statuses.seen');
  const ids = ['status.created-not-started', 'status.operator', 'status.after-post-create', 'vertex.after-complete.status'] as const;
  const single = ids.map((id) => [id, items.get(id)] as const);
  const from: ObservationId[] = [...(seen ? ['statuses.seen' as const] : []), ...single.filter(([, value]) => value !== undefined).map(([id]) => id)];
  const values = new Set([...(seen?.v1 ?? []), ...(seen?.v2 ?? []), ...single.flatMap(([, value]) => (typeof value === 'string' ? [value] : []))]);
  if (values.size === 0) return [];
  const sorted = [...values].sort();
  return [
    {
      target: '$.components.schemas.DialogListItemBase.properties.status',
      description: 'Status values the target answered (the full set is not shown, §2.2, §3)',
      update: { examples: sorted, 'x-observed': { values: sorted } },
      from,
    },
  ];
};

const bodyShapes: Builder = (items) =>
  (
    [
      ['send', 'SendBody', 'limit.maxTextLength.send'],
      ['command', 'CommandBody', undefined],
    ] as const
  ).flatMap(([kind, schema, limitId]): Learned[] => {
    const template = items.get(`body.${kind}.accepted`);
    if (typeof template !== 'string') return [];
    const max = limitId ? refusedAbove(items, limitId) : undefined;
    return [
      {
        target: `$.components.schemas.${schema}`,
        description: `The ${kind} body shape the target took, verified by its effect (names and types not shown, §4.2)`,
        update: { ...templateSchema(template, max), 'x-observed': { template } },
        from: [`body.${kind}.accepted`, ...(max !== undefined ? [limitId!] : [])],
      },
    ];
  });

const errorBodies: Builder = (items) =>
  ERROR_RESPONSES.flatMap(([status, name]): Learned[] => {
    const observed = items.get(`error.${status}`);
    if (!observed?.contentType || observed.body === undefined || observed.body === 'empty') return [];
    const mediaType = observed.contentType.split(';')[0]!.trim();
    return [
      {
        target: `$.components.responses.${name}`,
        description: `Error body the target answered with ${status} (shape not shown, §7)`,
        update: { content: { [mediaType]: { schema: shapeSchema(observed.body) } } },
        from: [`error.${status}`],
      },
    ];
  });

const limits: Builder = (items) => {
  const out: Learned[] = [];
  const pageCount = items.get('limit.maxPageCount');
  const maxPageCount = refusedAbove(items, 'limit.maxPageCount');
  if (maxPageCount !== undefined)
    out.push({
      target: '$.components.parameters.PageCount.schema',
      description: 'Largest PageCount the target accepts (§8.3)',
      update: { maximum: maxPageCount },
      from: ['limit.maxPageCount'],
    });
  else if (pageCount?.outcome === 'found' && pageCount.refusal === 'clamped') {
    out.push({
      target: '$.components.parameters.PageCount',
      description: 'A larger PageCount is served as this many (§8.3)',
      update: { 'x-observed': { servedAtMost: pageCount.largestAccepted } },
      from: ['limit.maxPageCount'],
    });
  }
  const sendMessage = refusedAbove(items, 'limit.maxTextLength.sendMessage');
  if (sendMessage !== undefined)
    out.push({
      target: '$.components.schemas.SendMessageBody.properties.text',
      description: 'Longest send_message text the target accepts (§8.4)',
      update: { maxLength: sendMessage },
      from: ['limit.maxTextLength.sendMessage'],
    });
  const variables = refusedAbove(items, 'limit.maxVariablesBytes');
  // Bytes, not characters: a JSON Schema maxLength counts characters, so the figure stays an annotation.
  if (variables !== undefined)
    out.push({
      target: '$.components.schemas.CreateDialogBody.properties.variables',
      description: 'Largest variables the target accepts, in bytes (§8.4)',
      update: { 'x-observed': { maxBytes: variables } },
      from: ['limit.maxVariablesBytes'],
    });
  return out;
};

const defaults: Builder = (items) =>
  (['PageNumber', 'PageCount'] as const).flatMap((name) => {
    const [v1, v2] = [items.get(`default.v1.${name}`), items.get(`default.v2.${name}`)];
    // One parameter serves both versions: a default is written only when they agree.
    if (typeof v1 !== 'number' || v1 !== v2) return [];
    return [
      {
        target: `$.components.parameters.${name}.schema`,
        description: `Default ${name} (not shown, §4.1)`,
        update: { default: v1 },
        from: [`default.v1.${name}`, `default.v2.${name}`],
      },
    ];
  });

const rateLimit: Builder = (items) => {
  const observed = items.get('rate.limit');
  if (!observed?.limited) return [];
  const headers: Record<string, Schema> = {};
  if (observed.retryAfter?.some((form) => form !== 'absent'))
    headers['Retry-After'] = { description: `Observed as ${observed.retryAfter.filter((f) => f !== 'absent').join(' or ')}`, schema: { type: 'string' } };
  for (const name of observed.headers ?? []) headers[name] = { schema: { type: 'string' } };
  const response = { description: 'The request was throttled (rate limits not shown, §8.2)', ...(Object.keys(headers).length ? { headers } : {}) };
  return [
    {
      target: '$.paths.*.*.responses',
      description: 'How the target throttles (§8.2)',
      update: Object.fromEntries((observed.statuses ?? []).map((s) => [String(s), response])),
      from: ['rate.limit'],
    },
  ];
};

/** JSON Schema of a field's kind as the call showed it (callback-request.ts: integer, uuid, string, empty). */
const leaf = (type: string): Schema =>
  type === 'uuid' ? { type: 'string', format: 'uuid' } : ['integer', 'number', 'boolean'].includes(type) ? { type } : { type: 'string' };

/** Each field of a JSON or form body at its place: objects for keys, arrays for positions. */
function bodySchema(fields: ReadonlyArray<CallPlace & { type: string }>): Schema {
  const body: Schema = { type: 'object', properties: {} };
  for (const field of fields) {
    let node = body;
    field.path.forEach((key, i) => {
      const last = i === field.path.length - 1;
      if (typeof key === 'number') {
        node.type = 'array';
        delete node.properties;
        node = (node.items as Schema | undefined) ?? (node.items = last ? leaf(field.type) : { type: 'object', properties: {} });
      } else {
        const props = (node.properties ??= {}) as Record<string, Schema>;
        node = props[key] ??= last ? leaf(field.type) : { type: 'object', properties: {} };
      }
    });
  }
  return body;
}

const callback: Builder = (items) => {
  const observed = items.get('callback.shape');
  if (!observed?.method) return [];
  const inBody = observed.fields.filter((f) => f.in === 'json' || f.in === 'form' || f.in === 'multipart');
  const parameters = observed.fields.flatMap((f) =>
    f.in === 'query' || f.in === 'header' ? [{ name: String(f.path[0]), in: f.in, schema: leaf(f.type) }] : [],
  );
  const mediaType = observed.contentType === null || observed.contentType === undefined ? undefined : observed.contentType.split(';')[0]!.trim();
  const operation = {
    operationId: 'customBlockCall',
    summary: 'The call a bot makes to the block URL when it reaches a custom block (§6.1, shape not shown)',
    ...(parameters.length ? { parameters } : {}),
    ...(mediaType ? { requestBody: { content: { [mediaType]: { schema: bodySchema(inBody) } } } } : {}),
    responses: { '200': { description: 'Any answer of the external service' } },
  };
  return [
    {
      target: '$',
      description: 'The custom-block call as the run received it (§6.1)',
      update: { webhooks: { customBlockCall: { [observed.method.toLowerCase()]: operation } } },
      from: ['callback.shape'],
    },
  ];
};

/** The document's operations by the label observations name them with. */
const BY_LABEL = new Map<string, { method: string; path: string }>(Object.values(OPERATIONS).map((op) => [op.label, op]));

const deprecation: Builder = (items) =>
  Object.entries(items.get('versioning.deprecation-signals') ?? {}).flatMap(([label, headers]) => {
    const op = BY_LABEL.get(label);
    if (!op || Object.keys(headers).length === 0) return [];
    const update = {
      headers: Object.fromEntries(
        Object.keys(headers).map((h) => [h, { schema: { type: 'string' }, description: 'Deprecation or version signal seen (§9.5)' }]),
      ),
    };
    return [
      {
        target: `$.paths['${op.path}'].${op.method.toLowerCase()}.responses['200']`,
        description: `Deprecation and version headers of ${label} (policy not shown, §9.5)`,
        update,
        from: ['versioning.deprecation-signals'],
      },
    ];
  });

const BUILDERS: readonly Builder[] = [statusValues, bodyShapes, errorBodies, limits, defaults, rateLimit, callback, deprecation];

/** The overlay of one run (or a saved baseline): an action per place the observations fill. */
export function observedOverlay(fingerprint: readonly FingerprintItem[], run: Pick<RunMeta, 'startedAt' | 'target'> | null): Overlay {
  const items = new ObservedItems(fingerprint);
  const actions = BUILDERS.flatMap((build) => build(items)).map(({ target, description, update, from }) => ({
    target,
    description,
    update,
    'x-observed': {
      observations: from,
      runStartedAt: run?.startedAt ?? 'unknown',
      target: run?.target ?? 'unknown',
      sections: [...new Set(from.map((id) => items.section(id) ?? '?'))].sort(),
    },
  }));
  return {
    overlay: '1.0.0',
    info: { title: 'Dialog Bot Service: what a run observed where the specification says "not shown"', version: run?.startedAt ?? 'unknown' },
    extends: OVERLAY_EXTENDS,
    actions,
  };
}

/** Targets whose update differs between two overlays: where two runs (two vendors) learned different things. */
export function differingTargets(a: Overlay, b: Overlay): string[] {
  // Several actions may share a target (a limit and a default both update PageCount's schema): all of them count.
  const updates = (o: Overlay) => {
    const byTarget = new Map<string, unknown[]>();
    for (const x of o.actions) byTarget.set(x.target, [...(byTarget.get(x.target) ?? []), x.update]);
    return new Map([...byTarget].map(([target, all]) => [target, stableStringify(all)]));
  };
  const [ua, ub] = [updates(a), updates(b)];
  return [...new Set([...ua.keys(), ...ub.keys()])].filter((t) => ua.get(t) !== ub.get(t)).sort();
}
