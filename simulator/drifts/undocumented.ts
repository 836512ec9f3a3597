// Undocumented-behaviour drifts: they change an item the specification leaves "not shown", so no documented
// clause breaks; a baseline comparison of two runs is what notices them.
import type { Drift } from './types.ts';

export const UNDOCUMENTED_DRIFTS: Drift[] = [
  {
    name: 'operator-status-renamed',
    kind: 'undocumented',
    clause: '§3 status string of the operator state (not shown)',
    description: 'the operator state is reported as "waiting-operator"',
    config: { statuses: { operator: 'waiting-operator' } },
  },
  {
    name: 'default-page-count-20',
    kind: 'undocumented',
    clause: '§4.1 default PageCount (not shown; per_page 40 observed, §8.1)',
    description: 'without PageCount, pages hold 20 items',
    config: { lists: { defaultPageCount: 20 } },
  },
  {
    name: 'error-body-plain-text',
    kind: 'undocumented',
    clause: '§7 error body shape (not shown)',
    description: 'error bodies are plain text instead of problem+json',
    config: { errors: { format: 'text' } },
  },
];
