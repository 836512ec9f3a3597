// Undocumented-behaviour drifts: they change an item the specification leaves "not shown", so no documented
// clause breaks; a baseline comparison of two runs is what notices them.
import { parseFilterDate } from '../params.ts';
import { editBody, LIST_OPS, RECORD_IDS, type Drift } from './types.ts';

/** A filter bound as the simulator reads it, or undefined where it refuses it (simulator/params.ts). */
function boundOf(text: string, upper: boolean): number | undefined {
  try {
    return parseFilterDate(text, upper, 400, '');
  } catch {
    return undefined;
  }
}

/** What a careful store may do to a text and lose none of it: Unicode NFC, the whitespace around it trimmed. */
const normalized = (text: string): string => text.normalize('NFC').trim();

export const UNDOCUMENTED_DRIFTS: Drift[] = [
  {
    name: 'operator-status-renamed',
    kind: 'undocumented',
    clause: '§3 status string of the operator state (not shown)',
    description: 'the operator state is reported as "waiting-operator"',
    reports: ['status.operator'],
    config: { statuses: { operator: 'waiting-operator' } },
  },
  {
    name: 'default-page-count-20',
    kind: 'undocumented',
    clause: '§4.1 default PageCount (not shown; per_page 40 observed, §8.1)',
    description: 'without PageCount, pages hold 20 items',
    reports: ['default.v1.PageCount', 'default.v2.PageCount'],
    config: { lists: { defaultPageCount: 20 } },
  },
  {
    name: 'error-body-plain-text',
    kind: 'undocumented',
    clause: '§7 error body shape (not shown)',
    description: 'error bodies are plain text instead of problem+json',
    reports: ['error.400', 'error.401', 'error.403', 'error.404'],
    config: { errors: { format: 'text' } },
  },
  {
    name: 'variables-not-stored',
    kind: 'undocumented',
    clause: '§1.4 variables passed at creation (whether they show in the record: not shown)',
    description: 'variables passed at creation no longer show up as data items of the dialog',
    reports: ['variables.in-record'],
    config: { create: { variableItem: null } },
  },
  {
    name: 'updated-filter-on-creation',
    kind: 'undocumented',
    clause: "§4.1 UpdatedFrom/UpdatedTo filter on the respondent's last message (how it relates to updated: not shown)",
    description: 'UpdatedFrom and UpdatedTo filter on the creation time instead',
    reports: ['filter.v1.updated-matches-field', 'filter.v2.updated-matches-field'],
    beforeRequest: (ex) => {
      if (!LIST_OPS.has(ex.operationId ?? '')) return;
      for (const [from, to] of [
        ['UpdatedFrom', 'CreatedFrom'],
        ['UpdatedTo', 'CreatedTo'],
      ] as const) {
        const value = ex.query.get(from);
        if (value === null) continue;
        ex.query.delete(from);
        // A request that gives both is filtered on its creation by the stricter bound, and a bound the simulator
        // refuses stays in it, to be refused as sent: the drift changes what an Updated filter means, not whether bad
        // input is refused.
        const own = ex.query.get(to);
        const upper = to === 'CreatedTo';
        const [ownAt, movedAt] = [own === null ? undefined : boundOf(own, upper), boundOf(value, upper)];
        if (own !== null && (ownAt === undefined || (movedAt !== undefined && (upper ? ownAt <= movedAt : ownAt >= movedAt)))) continue;
        ex.query.set(to, value);
      }
    },
  },
  {
    name: 'stored-texts-normalized',
    kind: 'undocumented',
    clause: '§4.2 send "carries the message text", §4.1 variables "values passed into the dialog" (what a store does to a text: not shown)',
    description: "operator messages show in the data, and variables' values too, NFC-normalized and trimmed",
    reports: ['send.stored-text', 'variables.stored-text'],
    config: { send: { dataItem: { question: '', type: 'Operator' } } },
    change: (ex, _dialog, change) => {
      const item = change.message?.item;
      if (ex.operationId !== 'postV2ConversationSend' || !item) return change;
      return { ...change, message: { ...change.message!, item: { ...item, answer: normalized(item.answer) } } };
    },
    transformResponse: editBody(RECORD_IDS, (body) => {
      for (const item of Array.isArray(body.data) ? (body.data as Array<{ answer?: unknown; variable?: unknown }>) : []) {
        if (typeof item.variable === 'string' && typeof item.answer === 'string') item.answer = normalized(item.answer);
      }
    }),
  },
];
