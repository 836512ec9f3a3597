// What §1.6, §2.1, §2.2, §2.4 and §4.2 say of one dialog shown more than once: a record is its list item plus data,
// V1 and V2 read one dialog alike, a create answers the identifier of the dialog it made (new, listed, one dialog
// under both identifiers) and none when asked not to (response false), and a name holds the dialog's own number and
// its city. Pure: the reads are the test's (or a recording's); how many times a moving field is read again before it
// is called different is the test's too.
import { showValue } from '../lib/failure.ts';
import type { Json } from '../lib/json.ts';
import { defineCheck, type Finding } from './check.ts';

/**
 * Same value, a time compared as the instant it names (two ISO renderings of one instant agree), an id as the dialog it
 * names (a UUID in any case, RFC 9562).
 */
export function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (field === 'updated' && typeof a === 'string' && typeof b === 'string' && a !== '' && b !== '') return Date.parse(a) === Date.parse(b);
  if (field === 'id' && typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Two views of one dialog, field by field. */
export interface TwoViews {
  /** The fields both views declare (the document's), compared one by one. */
  fields: readonly string[];
  dialog: unknown;
  a: Record<string, unknown> | undefined;
  b: Record<string, unknown> | undefined;
}

export const recordMatchesListItem = defineCheck({
  name: 'record_matches_list_item',
  sections: ['2.2'],
  severity: 'high',
  statement: 'a record shows every field of its list item with the same value (a record is the list item plus data)',
  evidence: 'dialog',
  places: ['id', 'name', 'status', 'ip', 'location', 'updated', 'duration', 'source'].map((f) => `record vs list item /${f}`),
  judge: ({ fields, dialog, a, b }: TwoViews) =>
    fields.map(
      (field): Finding => ({
        at: `record vs list item /${field}`,
        location: `$.${field}`,
        holds: sameValue(field, a?.[field], b?.[field]),
        expected: 'the field of the list item (a record is the list item plus data, spec §2.2)',
        observed: showValue(sameValue(field, a?.[field], b?.[field]) ? 'the same value' : 'another value'),
        details: { dialog: dialog as Json, list: (a?.[field] ?? null) as Json, record: (b?.[field] ?? null) as Json },
      }),
    ),
});

/** V2 may give "" where V1 has a time (observed for in-process dialogs, §2.1 "can be an empty string"). */
export const versionsAgreeOn = (field: string, v1: unknown, v2: unknown) => sameValue(field, v1, v2) || (field === 'updated' && v2 === '');

export const versionsAgree = defineCheck({
  name: 'versions_agree',
  sections: ['2.2', '1.6'],
  severity: 'high',
  statement: 'V1 and V2 read one dialog alike: every field both records declare but the id has the same value',
  evidence: 'dialog',
  places: ['name', 'status', 'ip', 'location', 'updated', 'duration', 'data'].map((f) => `/${f}`),
  judge: ({ fields, dialog, a, b }: TwoViews) =>
    fields.map(
      (field): Finding => ({
        at: `/${field}`,
        location: `/${field} of dialog ${String(dialog)}`,
        holds: versionsAgreeOn(field, a?.[field], b?.[field]),
        expected: 'the same value in both versions of one dialog',
        observed: showValue(versionsAgreeOn(field, a?.[field], b?.[field]) ? 'the same value' : 'different values'),
        details: { v1: (a?.[field] ?? null) as Json, v2: (b?.[field] ?? null) as Json },
      }),
    ),
});

export const versionsListSameDialogs = defineCheck({
  name: 'versions_agree.same_dialogs',
  sections: ['1.6'],
  severity: 'high',
  statement: 'the V1 list of a query holds the dialogs of the V2 list of the same query',
  evidence: 'walk',
  places: ['/* (the same dialogs)'],
  judge: ({ pairs, v1Items, v2Items }: { pairs: number; v1Items: number; v2Items: number }) => [
    {
      at: '/* (the same dialogs)',
      holds: pairs > 0,
      expected: 'the dialogs of the V2 list in the V1 list of the same query (by name, or by ip and location)',
      observed: showValue(pairs > 0 ? 'dialogs in both' : 'no dialog in both'),
      details: { v2Items, v1Items },
    },
  ],
});

export const createdNewId = defineCheck({
  name: 'created_dialog_identified',
  sections: ['2.4'],
  severity: 'high',
  statement: 'a create answers the identifier of the dialog it made: one, and one no earlier create answered',
  evidence: 'series',
  places: ['/dialogId', '/dialogUUID'],
  judge: ({ field, dialog, answeredBefore }: { field: 'dialogId' | 'dialogUUID'; dialog: string | undefined; answeredBefore: boolean }) => [
    {
      at: `/${field}`,
      holds: dialog !== undefined && !answeredBefore,
      expected: 'the identifier of the dialog this request created: one no earlier create of the run answered',
      observed: showValue(dialog === undefined ? 'no identifier' : answeredBefore ? 'a dialog an earlier create answered' : 'a new dialog'),
      details: { dialog: dialog ?? null },
    },
  ],
});

/** Where a list shows a new dialog: its id among the items. */
export const NEW_DIALOG_LISTED = '/*/id (new dialog listed)';

export const createdListed = defineCheck({
  name: 'created_dialog_identified.listed',
  sections: ['1.6', '4.1', '4.2'],
  severity: 'high',
  statement: 'a dialog just created is listed: by V2 under its UUID, by V1 under an integer id',
  evidence: 'write',
  places: [NEW_DIALOG_LISTED],
  judge: ({ listed }: { listed: boolean }) => [
    { at: NEW_DIALOG_LISTED, holds: listed, expected: '"listed"', observed: showValue(listed ? 'listed' : 'not listed') },
  ],
});

export const createdOneDialog = defineCheck({
  name: 'created_dialog_identified.one_dialog',
  sections: ['2.4'],
  severity: 'high',
  statement: 'dialogId and dialogUUID of one create name one dialog: its V1 and V2 records agree on name, ip and location',
  evidence: 'write',
  places: ['/dialogId'],
  judge: ({ byId, byUuid }: { byId: Record<string, unknown> | undefined; byUuid: Record<string, unknown> | undefined }) => {
    const differing = ['name', 'ip', 'location'].filter((f) => byId?.[f] !== byUuid?.[f]);
    const observed = byId === undefined ? 'no V1 record' : differing.length ? `a dialog differing in ${differing.join(', ')}` : 'the same dialog';
    return [
      {
        at: '/dialogId',
        holds: observed === 'the same dialog',
        expected: 'the dialog dialogUUID names: its V1 and V2 records agree on name, ip and location',
        observed: showValue(observed),
      },
    ];
  },
});

/** The identifiers a POST create's answer carries when asked to (§2.4), and where a finding names each with response false. */
const IDENTIFIERS = ['dialogId', 'dialogUUID'] as const;
const withoutIds = (field: string) => `/${field} (response false)`;

/** The JSON paths ("$.data.dialogUUID") of every field named `name` in a JSON value, at any depth. */
function pathsOf(value: unknown, name: string, path = '$'): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const here = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
    return [...(key === name ? [here] : []), ...pathsOf(v, name, here)];
  });
}

/** A POST create's `response` as sent: the query's value, the JSON body's field (undefined where not given). */
export interface ResponseSent {
  query: unknown;
  body: unknown;
}

/** Whether `response` was false in every place a POST create gave it, and given in one at least. */
export const responseFalse = ({ query, body }: ResponseSent): boolean => {
  const given = [query, body].filter((v) => v !== undefined);
  return given.length > 0 && given.every((v) => v === false || v === 'false');
};

export const noIdsWithResponseFalse = defineCheck({
  name: 'created_dialog_identified.not_with_response_false',
  sections: ['4.2', '2.4'],
  severity: 'high',
  statement:
    'a POST create with response false (in the query, the JSON body or both) answers no dialogId and no dialogUUID, whatever its status and body otherwise',
  evidence: 'exchange',
  places: IDENTIFIERS.map(withoutIds),
  // "false: it does not [carry the dialog identifiers]" (§4.2). Only the status and body are not shown: what else it
  // answers is recorded (response.create.response-false). Which place wins when they disagree is not stated: nothing
  // is judged then.
  judge: ({ sent, answer }: { sent: ResponseSent; answer: string }): Finding[] => {
    if (!responseFalse(sent)) return [];
    let json: unknown;
    try {
      json = JSON.parse(answer);
    } catch {
      json = undefined;
    }
    return IDENTIFIERS.map((field) => {
      const found = pathsOf(json, field);
      return {
        at: withoutIds(field),
        ...(found.length ? { location: found.join(', ') } : {}),
        holds: found.length === 0,
        expected: `no ${field}: with response false the answer does not carry the dialog identifiers`,
        observed: showValue(found.length ? `${field} present` : 'absent'),
      };
    });
  },
});

export const nameNumberAndCity = defineCheck({
  name: 'name_conformance',
  sections: ['2.1'],
  severity: 'medium',
  statement: 'name holds the dialog number plus the city location names',
  evidence: 'exchange',
  places: ['/name'],
  judge: ({ name, location }: { name: string; location: string }) => {
    const observed = `${/\d/.test(name) ? 'a number' : 'no number'} and ${name.includes(location) ? 'the city' : 'not the city'}`;
    return [
      {
        at: '/name',
        holds: observed === 'a number and the city',
        expected: 'the dialog number plus the city given in location',
        observed: showValue(observed),
        details: { name, location },
      },
    ];
  },
});

export const nameOwnNumber = defineCheck({
  name: 'name_conformance.own_number',
  sections: ['2.1'],
  severity: 'high',
  statement: 'dialogs created side by side have one dialog number each in their names',
  evidence: 'series',
  places: ['/name'],
  judge: ({ names }: { names: ReadonlyArray<string | null> }) => {
    const numbers = names.map((name) => /\d+/.exec(name ?? '')?.[0]).filter((n) => n !== undefined);
    const own = new Set(numbers).size === numbers.length;
    return [
      {
        at: '/name',
        holds: own,
        expected: 'the dialog number of this dialog: one no other dialog created beside it has',
        observed: showValue(own ? 'a number of its own' : 'the number of another dialog'),
        details: { names: [...names] },
      },
    ];
  },
});
