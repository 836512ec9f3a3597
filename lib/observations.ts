// Every observation the suite records, by id, with the type of what it observed: declared once, here. `observe()`
// accepts an id only with its payload's type, and readers of a fingerprint (the learned document, the run's vendor
// version, the tests) get the declared type back, with no cast and no text read back.
// In lib/ because contract (the tests), discovery and load (limits, rates), report (the overlay) and scripts share it.
import type { FingerprintItem } from './fingerprint.ts';
import type { Json } from './json.ts';
import type { Shape } from './shape.ts';

type Version = 'v1' | 'v2';
type BodyKind = 'send' | 'command';
/** The answers of one operation to a few requests, by what each request was: "text without typing" → 400. */
type StatusByCase = Record<string, number>;

/** A status and the shape of the body that came with it (no values). */
export interface AnsweredShape {
  status: number;
  body: Shape;
}

/** An error answer: its status, content type and body shape (§7: shape not shown). */
export interface ErrorBodyObserved extends AnsweredShape {
  contentType: string | null;
}

/** The size limits the probes and the k6 size-limits script search (discovery/size-limits.ts). */
export type SizeLimitId = 'limit.maxPageCount' | 'limit.maxTextLength.send' | 'limit.maxTextLength.sendMessage' | 'limit.maxVariablesBytes';

/** A size limit (§8.3, §8.4): the search's outcome and bracket, and how the first value too large was refused. */
export interface SizeLimitObserved {
  outcome: 'found' | 'below-lower' | 'above-upper' | 'inconclusive';
  largestAccepted: number | null;
  firstRejected: number | null;
  /** Refused with an error, or served smaller than asked (a PageCount clamped to `clampedTo`); null: nothing refused. */
  refusal: 'refused' | 'clamped' | null;
  clampedTo?: number;
  refusalStatus: number | null;
  refusalContentType: string | null;
  refusalBody: Shape | null;
}

/** Whether a run was throttled (§8.2), and how: the statuses, Retry-After forms and rate-limit headers it met. */
export type RateLimitObserved = { limited: false } | { limited: true; statuses: number[]; retryAfter: string[]; headers: string[] };

/** The rate ladder of one operation (k6 rate-limit script, §8.2). */
export interface LadderObserved {
  estimatedPerSecond: number | null;
  sustainedRung: number | null;
  refusalStatus: number | null;
  retryAfter: string | null;
  rateLimitHeaders: string[] | null;
}

/**
 * Where in the call a value was: a path in a JSON body (keys, array positions as numbers), a form or multipart field,
 * a query parameter, a header, a Bearer credential, or the whole body as text.
 */
export interface CallPlace {
  in: 'json' | 'form' | 'multipart' | 'query' | 'header' | 'bearer' | 'text';
  path: Array<string | number>;
  /** A multipart part sent as a file. */
  file?: true;
}

/** The custom block's call (§6.1), without a value: method, content type, every field's place and kind. */
export interface CallbackShapeObserved {
  method: string;
  contentType: string | null;
  fields: Array<CallPlace & { type: string }>;
  /** Where the integration token was. */
  tokenAt: CallPlace | null;
}

/** What an observation of each id holds. */
export type ObservationPayloads = {
  'status.created-not-started': string;
  'status.operator': string;
  'status.after-post-create': string;
  'send.in-record': { dataItemAdded: boolean; textInData: boolean };
  /** How a message text shows in the data (checks/stored-text.ts storedForm): "as sent", the forms a store applied, "not shown". */
  'send.stored-text': string[];
  'response.command': AnsweredShape;
  /** What an ip and a location of a dialog started through the API are (contract/judging/field-meanings.ts kinds). */
  'fields.api-started': { ip: string; location: string };
  'command.unknown-bot': number;
  'name.number-is-v1-id': boolean;
  'response.create.response-false': AnsweredShape;
  'response.create.default': AnsweredShape;
  'body.getV2DialogCreate': Shape;
  'variables.in-record': Array<{ variableMatchesName: boolean; type: string; question: 'empty' | 'text' }>;
  /** How a variable's text value shows in the data, as send.stored-text. */
  'variables.stored-text': string[];
  /** POST create given `response` in the query and the body, disagreeing: which took effect (contract/judging/variant-places.ts). */
  'response.create.both-places': string;
  /** POST create given `variables` in the query and the body, disagreeing: whose values the dialog shows. */
  'variables.create.both-places': string;
  'vertex.after-complete.status': string | null;
  'vertex.token.after-complete': StatusByCase;
  'vertex.send-message.fields': StatusByCase;
  'callback.shape': CallbackShapeObserved;
  'rate.limit': RateLimitObserved;
  'statuses.seen': { v1: string[]; v2: string[] };
  'sources.seen': string[];
  'updated.empty': string[];
  'updated.zone': string[];
  'lists.order': string;
  /** The vendor's application clock against the runner's, in steps, and the stamps that verified it (contract/clock/vendor-clock.ts). */
  'clock.offset': string;
  /** The Date header's clock against the runner's, in steps: a gateway's when one writes its own. */
  'clock.date-header': string;
  /** The largest time a write took to show in a list this run, in steps (contract/target/settle.ts). */
  'lists.lag': string;
  'send.moves-updated': string;
  'data.types.seen': { types: string[]; withDeleted: string[] };
  'file.v2.unknown': number;
  'file.record': string;
  'auth.issuance': string;
  'events.webhooks': string;
  'validation.order': StatusByCase;
  'variables.malformed': StatusByCase;
  /** Deprecation and version headers of each operation's answer, by the operation's label. */
  'versioning.deprecation-signals': Record<string, Record<string, string>>;
} & { [K in `default.${Version}.PageNumber` | `default.${Version}.PageCount`]: number } & { [K in `links.${Version}`]: Json } & {
  [K in `pagination.${Version}.past-last-page`]: { status: number; items: number; current_page: Json };
} & {
  /** The PageNumber of the first page (contract/judging/pagination-meaning.ts). */
  [K in `pagination.${Version}.first-page`]: number;
} & {
  /** A trigger of spec §3 on a dialog in a state (contract/core/state-table.ts): its answer and the status read after. */
  [K in `transition.${'start' | 'stop' | 'send' | 'command'}.from-${'created' | 'started' | 'in-process' | 'operator' | 'completed'}`]: {
    status: number;
    after: string | null;
  };
} & { [K in `filter.${Version}.updated-matches-field`]: boolean } & {
  [K in `file.${Version}.download`]: { status: number; contentType: string | null; nonEmpty: boolean };
} & {
  [K in `lenience.${BodyKind}`]: StatusByCase;
} & { [K in `body.${BodyKind}.accepted`]: string | null } & { [K in `error.${400 | 401 | 403 | 404}`]: ErrorBodyObserved } & {
  [K in `paging.${'PageNumber' | 'PageCount'}.out-of-range`]: Record<string, Json>;
} & { [K in SizeLimitId]: SizeLimitObserved } & {
  [K in `rate.limit.${string}`]: LadderObserved;
} & { [K in `additive.${string}`]: Shape | { variants: Shape[] } };

export type ObservationId = keyof ObservationPayloads;

/** An item several tests recorded with different values keeps them all, sorted (report/drift-report.ts). */
const isVariants = (value: unknown): boolean => value !== null && typeof value === 'object' && 'variants' in value;

/**
 * A fingerprint's observations by id, each read as its declaration types it. The one place fingerprint JSON meets
 * the types: its items were written through the typed `observe()`. An item several tests saw differently has no one
 * value and reads as not observed.
 */
export class ObservedItems {
  private readonly values: Partial<ObservationPayloads> = {};
  private readonly sections = new Map<string, string>();

  constructor(items: readonly FingerprintItem[]) {
    for (const item of items) {
      this.sections.set(item.id, item.section);
      if (!isVariants(item.observed) || item.id.startsWith('additive.')) Object.assign(this.values, { [item.id]: item.observed });
    }
  }

  get<K extends ObservationId>(id: K): ObservationPayloads[K] | undefined {
    return this.values[id];
  }

  has(id: string): boolean {
    return this.sections.has(id);
  }

  section(id: string): string | undefined {
    return this.sections.get(id);
  }
}
