// Breaking drifts on what the spec's words mean (§2's Meaning column, §3's state table): every field keeps its name
// and type, every call its status; what a value or a call means is wrong.
import { isoSeconds } from '../times.ts';
import type { Simulation } from '../simulation.ts';
import { editBody, eachDialog, LIST_IDS, RECORD_IDS, type Drift } from './types.ts';

const READS = [...LIST_IDS, ...RECORD_IDS];
/** A field of every dialog a read shows: in list items and in records. */
const everyDialog = (field: string) => [{ operations: READS, at: [`/*/${field}`, `/${field}`] }];

/** The UUID the first V1 create answered, per simulator (drifts are shared by every simulator of a process). */
const previousCreate = new WeakMap<Simulation, string>();

export const MEANING_DRIFTS: Drift[] = [
  {
    name: 'message-id-repeated',
    kind: 'breaking',
    clause: '§2.5 message_id is the identifier of the sent message',
    description: 'send_message answers the same message_id for every message',
    breaks: [{ operations: ['postVertexSendMessage'], at: ['/message_id'] }],
    transformResponse: editBody(['postVertexSendMessage'], (body) => (body.message_id = 1)),
  },
  {
    name: 'start-leaves-operator',
    kind: 'breaking',
    clause: '§3 start from any state leads to in process; §4.2 "resume a dialog"',
    description: 'start answers 204 on a dialog with an operator, and the dialog stays with the operator',
    breaks: [{ operations: ['postV2ConversationStart'], at: ['status of the dialog afterwards'] }],
    change: (ex, dialog, change) => (ex.operationId === 'postV2ConversationStart' && dialog.state === 'operator' ? { ...change, state: undefined } : change),
  },
  {
    name: 'stop-leaves-created',
    kind: 'breaking',
    clause: '§3 stop from any state connects an operator',
    description: 'stop answers 204 on a dialog created, not started, and the dialog stays not started',
    breaks: [{ operations: ['postV2ConversationStop'], at: ['status of the dialog afterwards'] }],
    change: (ex, dialog, change) => (ex.operationId === 'postV2ConversationStop' && dialog.state === 'created' ? { ...change, state: undefined } : change),
  },
  {
    name: 'get-create-starts',
    kind: 'breaking',
    clause: '§3 GET create leaves the dialog created, not started (the bot publishes no messages)',
    description: 'GET /v2/dialog/{BotID}/create starts the dialog it creates',
    breaks: [{ operations: ['getV2DialogCreate'], at: ['status of the dialog afterwards'] }],
    transformResponse: (ex, reply, sim) => {
      if (ex.operationId !== 'getV2DialogCreate' || reply.status !== 200) return reply;
      const made = sim.store.byV1(sim.store.nextDialogId - 1);
      if (made?.state === 'created') sim.store.apply(made, { state: 'inProcess' });
      return reply;
    },
  },
  {
    name: 'v1-create-repeats-id',
    kind: 'breaking',
    clause: '§2.4 dialogId of GET /v1/dialog/{BotID}/create identifies the created dialog',
    description: 'V1 create answers, after its first, the dialogId of the first dialog it created',
    breaks: [{ operations: ['getV1DialogCreate'], at: ['/dialogId'] }],
    transformResponse: editBody(['getV1DialogCreate'], (body, _ex, sim) => {
      const made = String(body.dialogId);
      const before = previousCreate.get(sim);
      previousCreate.set(sim, before ?? made);
      if (before !== undefined) body.dialogId = before;
    }),
  },
  {
    name: 'duration-milliseconds',
    kind: 'breaking',
    clause: '§2.1 duration is the dialog duration in seconds',
    description: 'duration counts milliseconds in V1 and V2',
    breaks: everyDialog('duration'),
    transformResponse: (ex, reply) => eachDialog(ex, reply, 'any', (d) => (d.duration = Number(d.duration) * 1000)),
  },
  {
    name: 'ip-location-swapped',
    kind: 'breaking',
    clause: '§2.1 ip is the IP address of the user, location the city',
    description: 'ip carries the city and location the IP address, in V1 and V2',
    breaks: [...everyDialog('ip'), ...everyDialog('location')],
    transformResponse: (ex, reply) => eachDialog(ex, reply, 'any', (d) => ([d.ip, d.location] = [d.location, d.ip])),
  },
  {
    name: 'updated-hour-early',
    kind: 'breaking',
    clause: '§2.1 updated is the date and time of the last message',
    description: 'updated is an hour earlier than the last message, its zone designator unchanged (V1 and V2)',
    breaks: everyDialog('updated'),
    transformResponse: (ex, reply) =>
      eachDialog(ex, reply, 'any', (d) => {
        const v = d.updated;
        if (typeof v === 'string' && v !== '') d.updated = isoSeconds(Date.parse(v) - 3_600_000, /(Z|[+-]\d{2}:?\d{2})$/.exec(v)?.[1] ?? 'Z');
      }),
  },
];
