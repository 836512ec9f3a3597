// Breaking drifts where V1 and V2 disagree about the same dialog (spec §2.2: a record has the same fields in both
// versions, only ids and source differ, §2.1).
import { isoSeconds } from '../times.ts';
import { eachDialog, type Drift } from './types.ts';

/** A drift that rewrites one field of every V1 list item and record. */
function v1Field(name: string, field: string, description: string, edit: (value: unknown) => unknown): Drift {
  return {
    name,
    kind: 'breaking',
    clause: `§2.1, §2.2 ${field} of a dialog is the same in V1 and V2`,
    description,
    // The suite holds the V1 record against the V2 one (versions_agree of GET /v1/conversation/{id}).
    breaks: [{ operations: ['getV1Conversation'], at: [`/${field}`] }],
    transformResponse: (ex, reply) => eachDialog(ex, reply, 'v1', (d) => (d[field] = edit(d[field]))),
  };
}

export const VERSION_DRIFTS: Drift[] = [
  {
    name: 'v1-list-items-anonymised',
    kind: 'breaking',
    clause: '§1.6, §2.2 V1 lists the dialogs V2 lists, with the fields of their records (one dialog, two identifier schemes)',
    description: 'V1 list items carry a generic name ("Dialog N"), the gateway\'s IP and no city; V1 records are right',
    breaks: [
      { operations: ['getV1Conversations'], at: ['/* (the same dialogs)'] },
      { operations: ['getV1Conversation'], at: ['record vs list item /name', 'record vs list item /ip', 'record vs list item /location'] },
    ],
    transformResponse: (ex, reply) =>
      ex.operationId === 'getV1Conversations'
        ? eachDialog(ex, reply, 'v1', (d) => Object.assign(d, { name: `Dialog ${String(d.id)}`, ip: '10.0.0.1', location: '' }))
        : reply,
  },
  v1Field('v1-status-differs', 'status', 'V1 reports every status in capitals ("IN-PROCESS")', (v) => String(v).toUpperCase()),
  v1Field('v1-updated-differs', 'updated', 'V1 reports updated an hour later than V2', (v) =>
    // The same zone designator as the record's, so only the instant differs.
    typeof v === 'string' && v !== '' ? isoSeconds(Date.parse(v) + 3_600_000, /(Z|[+-]\d{2}:?\d{2})$/.exec(v)?.[1] ?? 'Z') : v,
  ),
  v1Field('v1-duration-differs', 'duration', 'V1 reports the duration one second longer than V2', (v) => Number(v) + 1),
  v1Field('v1-data-differs', 'data', 'V1 records lose their last data item', (v) => (Array.isArray(v) ? v.slice(0, -1) : v)),
  v1Field('v1-name-differs', 'name', 'V1 names the dialog without its city ("#1042")', (v) => String(v).split(' ')[0]),
];
