// Breaking drifts: a list filter is silently ignored (spec §4.1).
import { ignoreQuery, LIST_IDS, rewriteQuery, type Drift } from './types.ts';

export const FILTER_DRIFTS: Drift[] = [
  {
    name: 'updated-from-as-to',
    kind: 'breaking',
    clause: "§4.1 UpdatedFrom is the start of the filter period on the respondent's last message",
    description: 'UpdatedFrom is read as the end of the period: a later UpdatedFrom lists more dialogs, not fewer',
    breaks: [{ operations: LIST_IDS, at: ['filter UpdatedFrom (monotone)', 'filter UpdatedFrom', 'filter UpdatedFrom/UpdatedTo (outside)'] }],
    beforeRequest: (ex) => {
      const from = ex.query.get('UpdatedFrom');
      if (!LIST_IDS.includes(ex.operationId as never) || from === null || ex.query.has('UpdatedTo')) return;
      ex.query.delete('UpdatedFrom');
      ex.query.set('UpdatedTo', from);
    },
  },
  {
    name: 'v1-created-filter-ignored',
    kind: 'breaking',
    clause: '§4.1 CreatedFrom/CreatedTo filter the list on the creation date, in V1 as in V2',
    description: 'V1 lists ignore CreatedFrom and CreatedTo (V2 honours them): a V1 list of a window holds the newest dialogs instead',
    breaks: [{ operations: ['getV1Conversations'], at: ['filter CreatedFrom/CreatedTo'] }],
    beforeRequest: (ex) => {
      if (ex.operationId === 'getV1Conversations') for (const name of ['CreatedFrom', 'CreatedTo']) ex.query.delete(name);
    },
  },
  {
    name: 'bot-filter-ignored',
    kind: 'breaking',
    clause: '§4.1 BotID filters the list by bot',
    description: 'BotID is ignored: lists hold the dialogs of every bot',
    breaks: [{ operations: LIST_IDS, at: ['filter BotID'] }],
    beforeRequest: ignoreQuery('BotID'),
  },
  {
    name: 'created-filter-ignored',
    kind: 'breaking',
    clause: '§4.1 CreatedFrom/CreatedTo filter the list on the creation date',
    description: 'CreatedFrom and CreatedTo are ignored',
    breaks: [{ operations: LIST_IDS, at: ['filter CreatedFrom/CreatedTo'] }],
    beforeRequest: ignoreQuery('CreatedFrom', 'CreatedTo'),
  },
  {
    name: 'updated-filter-ignored',
    kind: 'breaking',
    clause: "§4.1 UpdatedFrom/UpdatedTo filter the list on the respondent's last message",
    description: 'UpdatedFrom and UpdatedTo are ignored',
    breaks: [{ operations: LIST_IDS, at: ['filter UpdatedFrom/UpdatedTo', 'filter UpdatedFrom'] }],
    beforeRequest: ignoreQuery('UpdatedFrom', 'UpdatedTo'),
  },
  {
    name: 'filter-zone-dropped',
    kind: 'breaking',
    clause: '§4.1 CreatedFrom/CreatedTo: ISO 8601, a time zone may be added',
    description: 'the time zone of a filter is dropped: its local time is read as UTC',
    breaks: [{ operations: LIST_IDS, at: ['filter CreatedFrom/CreatedTo'] }],
    beforeRequest: rewriteQuery(['CreatedFrom', 'CreatedTo', 'UpdatedFrom', 'UpdatedTo'], (v) => v.replace(/([+-]\d{2}:?\d{2})$/, 'Z')),
  },
  {
    name: 'created-to-date-only',
    kind: 'breaking',
    clause: '§4.1 CreatedTo: the end of the period, a time may be added',
    description: 'CreatedTo reads only the date of a date-time, ending the period at 00:00 of that day',
    breaks: [{ operations: LIST_IDS, at: ['filter CreatedFrom/CreatedTo'] }],
    beforeRequest: rewriteQuery(['CreatedTo'], (v) => (v.length > 10 ? `${v.slice(0, 10)}T00:00:00Z` : v)),
  },
];
