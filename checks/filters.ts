// What the filters of the lists do (spec §4.1, "filtered by bot and by creation or update period", §1.3): BotID keeps
// a bot's dialogs and only them; CreatedFrom/CreatedTo include what was created inside the window and exclude what
// was not, with times and time zones; UpdatedFrom/UpdatedTo exclude what lies outside. Whether the Updated filters
// read the `updated` field (§4.1 says the respondent's last message) is observed, not judged. Pure.
import { showValue } from '../lib/failure.ts';
import type { Json } from '../lib/json.ts';
import { defineCheck } from './check.ts';

/** A query as a location names it: "CreatedFrom=2026-11-23T03%3A43%3A27Z". */
export const queryText = (query: Readonly<Record<string, string>>) =>
  Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');

export const botTotals = defineCheck({
  name: 'filter_conformance.bot_totals',
  sections: ['4.1'],
  severity: 'high',
  statement: 'the totals of two bots filtered by BotID add up to at most the unfiltered total, each less than it',
  evidence: 'walk',
  places: ['filter BotID (totals)'],
  judge: ({ own, other, unfiltered, bots }: { own: number; other: number; unfiltered: number; bots: readonly [number, number] }) => {
    const sum = own + other > unfiltered ? 'more than the unfiltered total' : other > 0 && own >= unfiltered ? 'the unfiltered total for one bot' : 'within it';
    return [
      {
        at: 'filter BotID (totals)',
        location: '$.meta.pagination.total',
        holds: sum === 'within it',
        expected: 'the totals of two bots adding up to at most the unfiltered total, each less than it',
        observed: showValue(sum),
        details: { [`BotID=${bots[0]}`]: own, [`BotID=${bots[1]}`]: other, unfiltered },
      },
    ];
  },
});

export const botFilter = defineCheck({
  name: 'filter_conformance.bot_id',
  sections: ['4.1'],
  severity: 'high',
  statement: "BotID lists a dialog under its own bot and not under another's",
  evidence: 'write',
  places: ['filter BotID'],
  judge: ({ ownBot, otherBot }: { ownBot: boolean; otherBot: boolean }) => {
    const wanted = { ownBot: 'listed', otherBot: 'absent' };
    const seen = { ownBot: ownBot ? 'listed' : 'absent', otherBot: otherBot ? 'listed' : 'absent' };
    return [{ at: 'filter BotID', holds: showValue(seen) === showValue(wanted), expected: showValue(wanted), observed: showValue(seen) }];
  },
});

export const createdWindow = defineCheck({
  name: 'filter_conformance.created_window',
  sections: ['4.1'],
  severity: 'high',
  statement: 'CreatedFrom/CreatedTo list a dialog created inside the window and not one created outside it, whatever the time zone the bounds are given in',
  evidence: 'write',
  places: ['filter CreatedFrom/CreatedTo'],
  judge: ({ window, inside, listed }: { window: Readonly<Record<string, string>>; inside: boolean; listed: boolean }) => [
    {
      at: 'filter CreatedFrom/CreatedTo',
      location: `filter ${queryText(window)}`,
      holds: listed === inside,
      expected: showValue(inside ? 'listed' : 'not listed'),
      observed: showValue(listed ? 'listed' : 'not listed'),
    },
  ],
});

export const updatedOutside = defineCheck({
  name: 'filter_conformance.updated_outside',
  sections: ['4.1'],
  severity: 'high',
  statement: 'UpdatedFrom/UpdatedTo list no dialog for a window nothing was updated in (after tomorrow, before 2000)',
  evidence: 'exchange',
  places: ['filter UpdatedFrom/UpdatedTo (outside)'],
  judge: ({ window, why, listed }: { window: Readonly<Record<string, string>>; why: string; listed: number }) => [
    {
      at: 'filter UpdatedFrom/UpdatedTo (outside)',
      location: `the items listed for ${queryText(window)}`,
      holds: listed === 0,
      expected: `no dialog listed: ${why}`,
      observed: showValue(listed),
    },
  ],
});

export const updatedMonotone = defineCheck({
  name: 'filter_conformance.updated_monotone',
  sections: ['4.1'],
  severity: 'high',
  statement: 'the total an UpdatedFrom filter lists never grows as UpdatedFrom moves later',
  evidence: 'walk',
  places: ['filter UpdatedFrom (monotone)'],
  judge: ({ totals }: { totals: readonly number[] }) => {
    const growing = totals.some((total, i) => i > 0 && total > totals[i - 1]!);
    return [
      {
        at: 'filter UpdatedFrom (monotone)',
        location: '$.meta.pagination.total as UpdatedFrom moves later',
        holds: !growing,
        expected: '"never growing"',
        observed: showValue(growing ? 'growing' : 'never growing'),
        details: { totals: [...totals] as Json },
      },
    ];
  },
});

export const updatedAfterLast = defineCheck({
  name: 'filter_conformance.updated_after_last_message',
  sections: ['4.1'],
  severity: 'high',
  statement: "UpdatedFrom after a dialog's last message does not list it",
  evidence: 'exchange',
  places: ['filter UpdatedFrom'],
  judge: ({ dialog, lastMessage, from, listed }: { dialog: unknown; lastMessage: string; from: string; listed: boolean }) => [
    {
      at: 'filter UpdatedFrom',
      location: `filter UpdatedFrom=${from}`,
      holds: !listed,
      expected: 'the dialog not listed: its respondent wrote no later than its last message',
      observed: showValue(listed ? 'listed' : 'not listed'),
      details: { dialog: dialog as Json, lastMessage },
    },
  ],
});
