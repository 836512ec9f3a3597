// Breaking drifts: a list filter is silently ignored (spec §4.1).
import { ignoreQuery, type Drift } from './types.ts';

export const FILTER_DRIFTS: Drift[] = [
  {
    name: 'bot-filter-ignored',
    kind: 'breaking',
    clause: '§4.1 BotID filters the list by bot',
    description: 'BotID is ignored: lists hold the dialogs of every bot',
    beforeRequest: ignoreQuery('BotID'),
  },
  {
    name: 'created-filter-ignored',
    kind: 'breaking',
    clause: '§4.1 CreatedFrom/CreatedTo filter the list on the creation date',
    description: 'CreatedFrom and CreatedTo are ignored',
    beforeRequest: ignoreQuery('CreatedFrom', 'CreatedTo'),
  },
  {
    name: 'updated-filter-ignored',
    kind: 'breaking',
    clause: "§4.1 UpdatedFrom/UpdatedTo filter the list on the respondent's last message",
    description: 'UpdatedFrom and UpdatedTo are ignored',
    beforeRequest: ignoreQuery('UpdatedFrom', 'UpdatedTo'),
  },
];
