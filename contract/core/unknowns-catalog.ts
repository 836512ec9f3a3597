// Which observations cover each "not shown" item the document marks with x-unknown. The probes' coverage test
// checks this table against listUnknowns() both ways, and after the run that every id here was recorded.
// Observations of the contract tests count too: the probes only add what those tests do not already see.
import { listUnknowns, type Document } from '../../openapi/document.ts';

export interface CatalogEntry {
  section: string;
  /** The x-unknown item, word for word. */
  item: string;
  /** Observation ids that together say what the target does there. */
  ids: string[];
}

export const UNKNOWN_CATALOG: readonly CatalogEntry[] = [
  { section: '2.6', item: 'fields of the file record', ids: ['file.record'] },
  { section: '3', item: 'exact status string of a created, not started dialog', ids: ['status.created-not-started'] },
  { section: '3', item: 'transitions to completed', ids: ['statuses.seen', 'vertex.after-complete.status'] },
  { section: '5.5', item: 'how login, password and integration tokens are issued, and token lifetime', ids: ['auth.issuance', 'vertex.token.after-complete'] },
  { section: '6.1', item: 'request shape of the custom-block callback to the external service', ids: ['callback.shape'] },
  { section: '6.2', item: 'webhooks, event kinds, event delivery and signatures', ids: ['events.webhooks'] },
  { section: '8.2', item: 'rate limits', ids: ['rate.limit'] },
  { section: '9.5', item: 'deprecation and compatibility policy between versions', ids: ['versioning.deprecation-signals'] },
  { section: '4.1', item: 'content type of the file download', ids: ['file.v1.download'] },
  { section: '4.2', item: 'response body of GET /v2/dialog/{BotID}/create', ids: ['body.getV2DialogCreate'] },
  { section: '4.2', item: 'status code and body of POST /v2/dialog/{BotID}/create when response is false', ids: ['response.create.response-false'] },
  {
    section: '3',
    item: 'from which states start is allowed and what it does from each',
    ids: [
      'transition.start.from-created',
      'transition.start.from-started',
      'transition.start.from-in-process',
      'transition.start.from-operator',
      'transition.start.from-completed',
    ],
  },
  {
    section: '3',
    item: 'from which states stop is allowed, and the exact status string of the operator state',
    ids: [
      'transition.stop.from-created',
      'transition.stop.from-started',
      'transition.stop.from-in-process',
      'transition.stop.from-operator',
      'status.operator',
    ],
  },
  {
    section: '3',
    item: 'from which states send is allowed, and the state it leaves the dialog in',
    ids: ['transition.send.from-created', 'transition.send.from-started', 'transition.send.from-in-process', 'transition.send.from-operator'],
  },
  {
    section: '3',
    item: 'from which states command is allowed, and the state it leaves the dialog in',
    ids: ['transition.command.from-created', 'transition.command.from-started', 'transition.command.from-in-process', 'transition.command.from-operator'],
  },
  { section: '4.2', item: 'success response of command', ids: ['response.command'] },
  { section: '4.1', item: 'parameters and response of GET /v2/file/{fileId}', ids: ['file.v2.download', 'file.v2.unknown'] },
  { section: '7', item: 'error body shape', ids: ['error.400', 'error.401', 'error.403', 'error.404'] },
  {
    section: '4.1',
    item: 'default PageNumber, and the accepted range of PageNumber',
    ids: [
      'default.v1.PageNumber',
      'default.v2.PageNumber',
      'paging.PageNumber.out-of-range',
      'pagination.v1.past-last-page',
      'pagination.v2.past-last-page',
      'pagination.v1.first-page',
      'pagination.v2.first-page',
    ],
  },
  {
    section: '8.3',
    item: 'default and maximum PageCount',
    ids: ['default.v1.PageCount', 'default.v2.PageCount', 'paging.PageCount.out-of-range', 'limit.maxPageCount'],
  },
  {
    section: '8.4',
    item: 'maximum variables size, and whether variables show up in the dialog record',
    ids: ['limit.maxVariablesBytes', 'variables.malformed', 'variables.in-record', 'variables.stored-text'],
  },
  { section: '2.2', item: 'full set of status values', ids: ['statuses.seen'] },
  { section: '2.1', item: 'when updated is an empty string', ids: ['updated.empty'] },
  { section: '2.1', item: 'full set of source values', ids: ['sources.seen'] },
  { section: '2.2', item: 'data item type values other than Text', ids: ['data.types.seen'] },
  {
    section: '4.2',
    item: 'name and type of the send body field; maximum message text length (spec 8.4)',
    ids: ['body.send.accepted', 'lenience.send', 'limit.maxTextLength.send', 'send.stored-text'],
  },
  { section: '4.2', item: 'names and types of the command body fields', ids: ['body.command.accepted', 'lenience.command'] },
  {
    section: '4.3',
    item: 'whether text and typing are each required; maximum text length (spec 8.4)',
    ids: ['vertex.send-message.fields', 'limit.maxTextLength.sendMessage'],
  },
];

const keyOf = (u: { section: string; item: string }) => `§${u.section} ${u.item}`;

/** Marked items without a catalog entry, and catalog entries no mark names any more (both are holes). */
export function catalogGaps(doc: Document): { uncatalogued: string[]; stale: string[] } {
  const marked = new Set(listUnknowns(doc).map(keyOf));
  const catalogued = new Set(UNKNOWN_CATALOG.map(keyOf));
  return { uncatalogued: [...marked].filter((k) => !catalogued.has(k)), stale: [...catalogued].filter((k) => !marked.has(k)) };
}

/** What the spec says of an observation: "not shown" with the items it helps answer, or nothing at all. */
export function documentedFor(id: string): string {
  const entries = UNKNOWN_CATALOG.filter((e) => e.ids.includes(id));
  return entries.length === 0 ? 'not stated by the specification' : `not shown: ${entries.map((e) => `${e.item} (spec §${e.section})`).join('; ')}`;
}
