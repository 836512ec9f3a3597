// Deterministic seeding: the same seed and dialog count give the same dialogs, ids, UUIDs, names and files.
// Times are offsets before an anchor (config.seed.anchor, default the start of the current UTC day), so two
// runs on the same day, or any two runs with a pinned anchor, give identical lists.
import { Faker, base, en } from '@faker-js/faker';
import { STATUS_KEYS, type SimulatorConfig, type StatusKey } from './config.ts';
import { FILE_TEMPLATES } from './file-templates.ts';
import type { DataItem, Dialog, Store } from './store.ts';

export function makeFaker(seed: number): Faker {
  return new Faker({ locale: [en, base], seed });
}

/** Questions the seeded bots ask; `answer` draws a plausible reply. */
const QUESTIONS: ReadonlyArray<{ question: string; variable: string | null; answer: (f: Faker) => string }> = [
  { question: 'What is your name?', variable: 'name', answer: (f) => f.person.firstName() },
  { question: 'What is your e-mail?', variable: 'email', answer: (f) => f.internet.email() },
  { question: 'How can we help you?', variable: null, answer: (f) => f.lorem.sentence() },
  { question: 'What is your contract number?', variable: 'contract_number', answer: (f) => f.string.numeric(8) },
  { question: 'Rate our service from 1 to 5', variable: 'rating', answer: (f) => String(f.number.int({ min: 1, max: 5 })) },
];

const DAY_MS = 86_400_000;

export function seedAnchor(config: SimulatorConfig, now: number): number {
  return config.seed.anchor !== null ? Date.parse(config.seed.anchor) : Math.floor(now / DAY_MS) * DAY_MS;
}

export function seedStore(store: Store, config: SimulatorConfig, seed: number, count: number, now: number): void {
  const f = makeFaker(seed);
  const s = config.seed;
  const anchor = seedAnchor(config, now);
  const bots = config.bots.filter((b) => b.weight > 0).map((b) => ({ weight: b.weight, value: b.id }));
  const states = STATUS_KEYS.filter((k) => s.statusWeights[k] > 0).map((k) => ({ weight: s.statusWeights[k], value: k }));
  if (bots.length === 0 || states.length === 0) return;
  const spanSeconds = Math.floor(s.days * 86_400);
  // Creation times first, oldest first, so V1 ids grow with creation time like a real sequence.
  const createdAt = Array.from({ length: count }, () => anchor - f.number.int({ min: 0, max: spanSeconds }) * 1000).sort(
    (a, b) => a - b,
  );
  for (const created of createdAt) {
    const state: StatusKey = f.helpers.weightedArrayElement(states);
    const silent = state === 'created' || (state === 'inProcess' && f.datatype.boolean({ probability: s.silentInProcessShare }));
    // The last message lies between creation and the anchor, so no seeded time is in the future.
    const talk = f.number.int({ min: 20, max: 3600 }) * 1000;
    const lastMessageAt = silent ? null : created + Math.min(talk, anchor - created);
    const dialog: Dialog = {
      id: store.nextDialogId,
      uuid: f.string.uuid(),
      botId: f.helpers.weightedArrayElement(bots),
      state,
      ip: f.internet.ipv4(),
      city: f.location.city(),
      source: f.helpers.arrayElement(s.sources),
      createdAt: created,
      lastMessageAt,
      duration: lastMessageAt === null ? 0 : Math.floor((lastMessageAt - created) / 1000),
      data: silent ? [] : seedData(f, store, config),
      deleted: f.datatype.boolean({ probability: s.deletedShare }),
    };
    store.add(dialog);
  }
}

function seedData(f: Faker, store: Store, config: SimulatorConfig): DataItem[] {
  const s = config.seed;
  const items: DataItem[] = f.helpers.arrayElements(QUESTIONS, { min: 1, max: 3 }).map((q) => ({
    question: q.question,
    type: f.helpers.arrayElement(s.dataTypes),
    answer: q.answer(f),
    variable: q.variable,
  }));
  if (f.datatype.boolean({ probability: s.fileShare })) {
    const template = f.helpers.arrayElement(FILE_TEMPLATES);
    const file = store.addFile({
      id: store.nextFileId,
      name: `${f.system.fileName({ extensionCount: 0 })}.${template.extension}`,
      contentType: template.contentType,
      bytes: template.bytes,
      deleted: f.datatype.boolean({ probability: s.deletedFileShare }),
    });
    // The answer is rendered as an absolute link once the server's address is known (Store.record).
    items.push({ question: 'Please upload a document', type: f.helpers.arrayElement(s.dataTypes), answer: '', variable: 'document', fileId: file.id, deleted: file.deleted });
  }
  return items;
}
