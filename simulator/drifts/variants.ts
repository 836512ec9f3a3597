// Breaking drifts that honour only one of a documented variant's forms (spec §4.1, §4.2): an input the spec places in
// the query and in the JSON body read from one place only, a form of a value refused, misread or ignored. The form the
// suite happened to send before keeps working.
import { rewriteQuery, type Drift } from './types.ts';
import type { Exchange } from '../exchange.ts';

type Place = 'query' | 'body';
const PLACE_WORDS: Record<Place, string> = { query: 'the query', body: 'the JSON body' };

/** Removes a field of a JSON object body before the handler reads it (any other body is left to the handler). */
function dropBodyField(ex: Exchange, name: string): void {
  try {
    const body: unknown = JSON.parse(ex.body.toString('utf8'));
    if (body === null || typeof body !== 'object' || Array.isArray(body) || !(name in body)) return;
    delete (body as Record<string, unknown>)[name];
    ex.body = Buffer.from(JSON.stringify(body));
  } catch {
    // not JSON: the handler answers it
  }
}

/** POST create that reads `name` from one place only: the other place's value never reaches the handler. */
function onePlaceOnly(name: 'response' | 'variables', kept: Place, at: string): Drift {
  const ignored: Place = kept === 'query' ? 'body' : 'query';
  return {
    name: `create-${name}-${kept}-only`,
    kind: 'breaking',
    clause: `§4.2 POST create takes ${name} in the query and in the JSON body`,
    description: `POST create reads ${name} from ${PLACE_WORDS[kept]} only: in ${PLACE_WORDS[ignored]} it is ignored`,
    breaks: [{ operations: ['postV2DialogCreate'], at: [at] }],
    beforeRequest: (ex) => {
      if (ex.operationId !== 'postV2DialogCreate') return;
      if (ignored === 'query') ex.query.delete(name);
      else dropBodyField(ex, name);
    },
  };
}

export const VARIANT_DRIFTS: Drift[] = [
  // A create whose identifiers do not come back answers another status than the 200 response true documents.
  onePlaceOnly('response', 'body', 'status'),
  onePlaceOnly('response', 'query', 'status'),
  onePlaceOnly('variables', 'query', 'variables in the JSON body alone'),
  onePlaceOnly('variables', 'body', 'variables in the query alone'),
  {
    name: 'create-response-false-ignored',
    kind: 'breaking',
    clause: '§4.2 POST create response "false: it [the response] does not [carry the dialog identifiers]"',
    description: 'POST create ignores response: with false, in the query, the JSON body or both, it answers 200 with dialogId and dialogUUID',
    breaks: [{ operations: ['postV2DialogCreate'], at: ['/dialogId (response false)', '/dialogUUID (response false)'] }],
    // Every create answers as for true: the simulator's answer to false never carries the identifiers.
    config: { create: { responseDefault: true } },
    beforeRequest: (ex) => {
      if (ex.operationId !== 'postV2DialogCreate') return;
      ex.query.delete('response');
      dropBodyField(ex, 'response');
    },
  },
  {
    name: 'v2-get-create-variables-ignored',
    kind: 'breaking',
    clause: '§4.2 GET /v2/dialog/{BotID}/create takes variables in the query, as GET /v1 does (§4.1)',
    description: 'GET /v2/dialog/{BotID}/create ignores variables; GET /v1 passes them into the dialog',
    breaks: [{ operations: ['getV2DialogCreate'], at: ['variables in the query'] }],
    beforeRequest: (ex) => {
      if (ex.operationId === 'getV2DialogCreate') ex.query.delete('variables');
    },
  },
  {
    name: 'filter-date-alone-refused',
    kind: 'breaking',
    clause: '§4.1 CreatedFrom, CreatedTo, UpdatedFrom, UpdatedTo: an ISO 8601 date, to which a time and a zone may be added',
    description: 'a time filter given as a date alone is refused (400): only a date and a time are read',
    breaks: [{ operations: ['getV1Conversations', 'getV2Conversations'], at: ['status'] }],
    // A date the handler refuses as it refuses any value of the wrong format (§7 400).
    beforeRequest: rewriteQuery(['CreatedFrom', 'CreatedTo', 'UpdatedFrom', 'UpdatedTo'], (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T` : v)),
  },
  {
    name: 'updated-filter-zone-dropped',
    kind: 'breaking',
    clause: '§4.1 UpdatedFrom/UpdatedTo: ISO 8601, a time zone may be added',
    description: 'the time zone of UpdatedFrom and UpdatedTo is dropped: their local time is read as UTC (the Created filters keep it)',
    breaks: [{ operations: ['getV1Conversations', 'getV2Conversations'], at: ['filter UpdatedFrom'] }],
    beforeRequest: rewriteQuery(['UpdatedFrom', 'UpdatedTo'], (v) => v.replace(/([+-]\d{2}:?\d{2})$/, 'Z')),
  },
];
