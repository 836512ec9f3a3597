// Breaking drifts on what the spec's words mean (§2's Meaning column, §3's state table): every field keeps its name
// and type, every call its status; what a value or a call means is wrong.
import { isoSeconds } from '../times.ts';
import type { Simulation } from '../simulation.ts';
import { editBody, eachDialog, LIST_IDS, movedDialogs, noteMove, RECORD_IDS, type Drift } from './types.ts';

const READS = [...LIST_IDS, ...RECORD_IDS];
const CREATE_IDS: readonly string[] = ['getV1DialogCreate', 'getV2DialogCreate', 'postV2DialogCreate'];
/** A field of every dialog a read shows: in list items and in records. */
const everyDialog = (field: string) => [{ operations: READS, at: [`/*/${field}`, `/${field}`] }];

/** What the first create of an operation answered, per simulator (drifts are shared by every simulator of a process). */
const firstAnswer = new WeakMap<Simulation, Map<string, unknown>>();

/** A create that answers, after its first, the identifier its first answer gave: §2.4's identifier names no new dialog. */
function repeatsId(operationId: 'getV1DialogCreate' | 'postV2DialogCreate', field: 'dialogId' | 'dialogUUID', name: string): Drift {
  return {
    name,
    kind: 'breaking',
    clause: `§2.4 ${field} of ${operationId === 'getV1DialogCreate' ? 'GET /v1' : 'POST /v2'}/dialog/{BotID}/create identifies the created dialog`,
    description: `${operationId === 'getV1DialogCreate' ? 'V1' : 'POST'} create answers, after its first, the ${field} of the first dialog it created`,
    breaks: [{ operations: [operationId], at: [`/${field}`] }],
    transformResponse: editBody([operationId], (body, _ex, sim) => {
      const answers = firstAnswer.get(sim) ?? new Map<string, unknown>();
      firstAnswer.set(sim, answers);
      if (answers.has(operationId)) body[field] = answers.get(operationId);
      else answers.set(operationId, body[field]);
    }),
  };
}

/** A GET create (§3: created, not started) that starts the dialog it makes. */
function getCreateStarts(operationId: 'getV1DialogCreate' | 'getV2DialogCreate', name: string): Drift {
  return {
    name,
    kind: 'breaking',
    clause: '§3 GET create leaves the dialog created, not started (the bot publishes no messages)',
    description: `GET /${operationId === 'getV1DialogCreate' ? 'v1' : 'v2'}/dialog/{BotID}/create starts the dialog it creates`,
    breaks: [{ operations: [operationId], at: ['status of the dialog afterwards'] }],
    transformResponse: (ex, reply, sim) => {
      if (ex.operationId !== operationId || reply.status !== 200) return reply;
      const made = sim.store.byV1(sim.store.nextDialogId - 1);
      if (made?.state === 'created') sim.store.apply(made, { state: 'inProcess' });
      return reply;
    },
  };
}

/** The status each API dialog had when it was made (v1-status-frozen). */
const statusAtCreate = new WeakMap<Simulation, Map<number, string>>();
const memo = <T>(map: WeakMap<Simulation, T>, sim: Simulation, make: () => T): T => {
  const value = map.get(sim) ?? make();
  map.set(sim, value);
  return value;
};

/** A create that leaves its dialog with an operator (§3: GET creates it not started, POST starts it). */
function createLeavesOperator(operationId: 'getV1DialogCreate' | 'postV2DialogCreate', name: string): Drift {
  return {
    name,
    kind: 'breaking',
    clause: `§3 ${operationId === 'getV1DialogCreate' ? 'GET create leaves the dialog created, not started' : 'POST create starts the dialog'}`,
    description: `${operationId === 'getV1DialogCreate' ? 'GET /v1' : 'POST /v2'}/dialog/{BotID}/create leaves the dialog with an operator`,
    breaks: [{ operations: [operationId], at: ['status of the dialog afterwards'] }],
    transformResponse: (ex, reply, sim) => {
      if (ex.operationId !== operationId || reply.status !== 200) return reply;
      const made = sim.store.byV1(sim.store.nextDialogId - 1);
      if (made?.origin === 'api') sim.store.apply(made, { state: 'operator' });
      return reply;
    },
  };
}

/** How many times each simulator served a file (file-bytes-vary). */
const downloads = new WeakMap<Simulation, number>();

/** An IPv4 address as the unsigned 32-bit integer some stores keep it as ("203.0.113.7" -> "3405803783"). */
const ipAsInteger = (ip: unknown) => {
  const parts = String(ip).split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? String(parts.reduce((n, p) => n * 256 + p, 0)) : ip;
};

export const MEANING_DRIFTS: Drift[] = [
  {
    name: 'ip-as-integer',
    kind: 'breaking',
    clause: '§2.1 ip is the IP address of the user who started the dialog',
    description: 'ip carries the address as its unsigned 32-bit integer ("3405803783"), in V1 and V2',
    breaks: everyDialog('ip'),
    transformResponse: (ex, reply) => eachDialog(ex, reply, 'any', (d) => (d.ip = ipAsInteger(d.ip))),
  },
  {
    name: 'list-updated-scheduled',
    kind: 'breaking',
    clause: '§2.1 updated is the date and time of the last message',
    description: "list items carry as updated the time of the bot's next scheduled message, two days ahead; records are right",
    breaks: [{ operations: LIST_IDS, at: ['/*/updated'] }],
    transformResponse: (ex, reply, sim) =>
      LIST_IDS.includes(ex.operationId as never)
        ? eachDialog(ex, reply, 'any', (d) => {
            if (typeof d.updated === 'string' && d.updated !== '') d.updated = isoSeconds(sim.now() + 2 * 86_400_000, 'Z');
          })
        : reply,
  },
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
  getCreateStarts('getV2DialogCreate', 'get-create-starts'),
  getCreateStarts('getV1DialogCreate', 'v1-get-create-starts'),
  {
    name: 'post-create-not-started',
    kind: 'breaking',
    clause: '§3 POST create starts the dialog (the bot starts publishing at once)',
    description: 'POST /v2/dialog/{BotID}/create leaves the dialog created, not started',
    breaks: [{ operations: ['postV2DialogCreate'], at: ['status of the dialog afterwards'] }],
    change: (ex, dialog, change) => (ex.operationId === 'postV2DialogCreate' && dialog.state === 'created' ? { ...change, state: undefined } : change),
  },
  repeatsId('getV1DialogCreate', 'dialogId', 'v1-create-repeats-id'),
  repeatsId('postV2DialogCreate', 'dialogUUID', 'v2-create-repeats-uuid'),
  {
    name: 'name-without-city',
    kind: 'breaking',
    clause: '§2.1 name is the dialog number plus the city it was started from',
    description: 'name holds the dialog number only, in V1 and V2 ("#1042")',
    breaks: everyDialog('name'),
    transformResponse: (ex, reply) => eachDialog(ex, reply, 'any', (d) => (d.name = String(d.name).split(' ')[0])),
  },
  {
    name: 'file-empty-body',
    kind: 'breaking',
    clause: '§4.1 GET /v1/file/{fileId}: response 200 is the file with that identifier',
    description: 'a file download answers 200 with no bytes at all',
    breaks: [{ operations: ['getV1File'], at: ['body'] }],
    transformResponse: (ex, reply) => (ex.operationId === 'getV1File' && reply.status === 200 ? { ...reply, raw: Buffer.alloc(0) } : reply),
  },
  {
    name: 'file-bytes-vary',
    kind: 'breaking',
    clause: '§2.6, §4.1 a fileId addresses one file: its download returns the file itself',
    description: 'each download of a file returns other bytes (a counter appended)',
    breaks: [{ operations: ['getV1File'], at: ['body'] }],
    transformResponse: (ex, reply, sim) => {
      if (ex.operationId !== 'getV1File' || reply.status !== 200 || reply.raw === undefined) return reply;
      const n = (downloads.get(sim) ?? 0) + 1;
      downloads.set(sim, n);
      return { ...reply, raw: Buffer.concat([Buffer.from(reply.raw), Buffer.from(String(n))]) };
    },
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
  createLeavesOperator('getV1DialogCreate', 'get-create-operator'),
  createLeavesOperator('postV2DialogCreate', 'post-create-operator'),
  {
    name: 'stop-to-created',
    kind: 'breaking',
    clause: '§3 stop leads to the operator state',
    description: 'stop answers 204 on a dialog in process and puts it back to created, not started',
    breaks: [{ operations: ['postV2ConversationStop'], at: ['status of the dialog afterwards'] }],
    change: (ex, dialog, change) =>
      ex.operationId === 'postV2ConversationStop' && dialog.state === 'inProcess' && change.state === 'operator' ? { ...change, state: 'created' } : change,
  },
  {
    name: 'v1-status-frozen',
    kind: 'breaking',
    clause: '§1.6, §2.2 V1 and V2 read one dialog alike (only id and source differ)',
    description: 'V1 reads show a dialog made through the API with the status it had when it was made',
    breaks: [{ operations: ['getV1Conversation'], at: ['/status'] }],
    transformResponse: (ex, reply, sim) => {
      const frozen = memo(statusAtCreate, sim, () => new Map<number, string>());
      if (CREATE_IDS.includes(ex.operationId ?? '') && reply.status === 200) {
        const made = sim.store.byV1(sim.store.nextDialogId - 1);
        if (made && !frozen.has(made.id)) frozen.set(made.id, sim.config.statuses[made.state]);
        return reply;
      }
      return eachDialog(ex, reply, 'v1', (d) => {
        const status = frozen.get(Number(d.id));
        if (status !== undefined) d.status = status;
      });
    },
  },
  {
    name: 'v1-list-goto-stale',
    kind: 'breaking',
    clause: '§4.2 command goto moves the dialog to another bot; §1.6 in both versions',
    description: 'the V1 list filtered by BotID never shows a dialog a goto moved under its new bot',
    breaks: [{ operations: ['postV2ConversationCommand'], at: ['bot of the dialog afterwards'] }],
    transformResponse: (ex, reply, sim) => {
      noteMove(ex, reply, sim);
      const gone = movedDialogs(sim);
      if (ex.operationId !== 'getV1Conversations' || !ex.query.has('BotID')) return reply;
      // The list as if the moved dialogs were not there: items renumbered, count and total one less each.
      return editBody(['getV1Conversations'], (body) => {
        const { meta, ...items } = body as { meta?: { pagination?: Record<string, number> } } & Record<string, unknown>;
        const kept = Object.values(items).filter((item) => !gone.has(Number((item as { id?: unknown }).id)));
        const dropped = Object.keys(items).length - kept.length;
        for (const key of Object.keys(body)) delete body[key];
        for (const [i, item] of kept.entries()) body[String(i)] = item;
        if (meta?.pagination) {
          meta.pagination.count = kept.length;
          meta.pagination.total = Number(meta.pagination.total) - dropped;
        }
        body.meta = meta;
      })(ex, reply, sim);
    },
  },
  {
    name: 'name-bot-number',
    kind: 'breaking',
    clause: '§2.1 name is the dialog number plus the city',
    description: 'name carries the bot\'s id where the dialog number belongs ("#101 Berlin"), in V1 and V2',
    breaks: everyDialog('name'),
    transformResponse: (ex, reply, sim) =>
      eachDialog(ex, reply, 'any', (d) => {
        const dialog = typeof d.id === 'number' ? sim.store.byV1(d.id) : sim.store.byV2(String(d.id));
        if (dialog) d.name = `#${dialog.botId} ${dialog.city}`;
      }),
  },
  {
    name: 'record-data-neighbour',
    kind: 'breaking',
    clause: '§2.2 data is the data collected in the dialog',
    description: 'a record carries the data of the dialog made before it (V1 and V2)',
    breaks: [{ operations: RECORD_IDS, at: ['/data'] }],
    transformResponse: editBody(RECORD_IDS, (body, ex, sim) => {
      const before = ex.dialog && sim.store.byV1(ex.dialog.id - 1);
      if (before) body.data = sim.store.record(before, 'v2').data;
    }),
  },
  {
    name: 'record-updated-stale',
    kind: 'breaking',
    clause: '§2.1, §2.2 updated is the time of the last message; a record is its list item plus data',
    description: "records show the dialog's creation time as updated once it has a message; list items show the message's",
    breaks: [{ operations: RECORD_IDS, at: ['record vs list item /updated', '/updated'] }],
    transformResponse: editBody(RECORD_IDS, (body, ex, sim) => {
      if (ex.dialog?.lastMessageAt != null) body.updated = isoSeconds(ex.dialog.createdAt, sim.config.format.updatedOffset);
    }),
  },
];
