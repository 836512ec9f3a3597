// Breaking drifts: a list filter is silently ignored (spec §4.1).
import { ignoreQuery, LIST_IDS, rewriteQuery, type Drift } from './types.ts';

export const FILTER_DRIFTS: Drift[] = [
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
