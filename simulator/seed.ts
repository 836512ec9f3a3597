// Deterministic seeding: the same seed and dialog count give the same dialogs, ids, UUIDs, names and files.
// Times are offsets before an anchor (config.seed.anchor, default the start of the current UTC day), so two
// runs on the same day, or any two runs with a pinned anchor, give identical lists.
import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';
import { STATUS_KEYS, type SimulatorConfig, type StatusKey } from './config.ts';
import { FILE_TEMPLATES } from './file-templates.ts';
import type { DataItem, Store } from './store.ts';

export function makeFaker(seed: number): Faker {
  // The English-only entry point: the package's main one loads every locale (about 30 MB more RSS).
  const FakerClass = english.constructor as typeof Faker;
  return new FakerClass({ locale: english.rawDefinitions, seed });
}

interface Question {
  question: string;
  variable: string | null;
  answer: (f: Faker) => string;
}

/** Questions the seeded bots ask; `answer` draws a plausible reply. */
const QUESTIONS: readonly Question[] = [
  { question: 'What is your name?', variable: 'name', answer: (f) => f.person.firstName() },
  { question: 'What is your e-mail?', variable: 'email', answer: (f) => f.internet.email() },
  { question: 'How can we help you?', variable: null, answer: (f) => f.lorem.sentence() },
  { question: 'What is your contract number?', variable: 'contract_number', answer: (f) => f.string.numeric(8) },
  { question: 'Rate our service from 1 to 5', variable: 'rating', answer: (f) => String(f.number.int({ min: 1, max: 5 })) },
];

const DAY_MS = 86_400_000;
/** Dialogs come from a limited set of cities; sharing the strings keeps 100000 dialogs small. */
const CITIES = 300;

function seedAnchor(config: SimulatorConfig, now: number): number {
  return config.seed.anchor !== null ? Date.parse(config.seed.anchor) : Math.floor(now / DAY_MS) * DAY_MS;
}

/**
 * Seeds `count` dialogs. Their data items are generated on first use, each dialog from its own seed
 * ([seed, id]), so the result does not depend on which dialogs are read first.
 */
export function seedStore(store: Store, config: SimulatorConfig, seed: number, count: number, now: number): void {
  const f = makeFaker(seed);
  const s = config.seed;
  const anchor = seedAnchor(config, now);
  const bots = config.bots.filter((b) => b.weight > 0).map((b) => ({ weight: b.weight, value: b.id }));
  const states = STATUS_KEYS.filter((k) => s.statusWeights[k] > 0).map((k) => ({ weight: s.statusWeights[k], value: k }));
  if (bots.length === 0 || states.length === 0) return;
  const cities = Array.from({ length: CITIES }, () => f.location.city());
  const spanSeconds = Math.floor(s.days * 86_400);
  // Creation times first, oldest first, so V1 ids grow with creation time like a real sequence.
  const createdAt = Array.from({ length: count }, () => anchor - f.number.int({ min: 0, max: spanSeconds }) * 1000).sort((a, b) => a - b);
  for (const created of createdAt) {
    const state: StatusKey = f.helpers.weightedArrayElement(states);
    const silent = state === 'created' || (state === 'inProcess' && f.datatype.boolean({ probability: s.silentInProcessShare }));
    // The last message lies between creation and the anchor, so no seeded time is in the future.
    const talk = f.number.int({ min: 20, max: 3600 }) * 1000;
    const lastMessageAt = silent ? null : created + Math.min(talk, anchor - created);
    const withFile = !silent && f.datatype.boolean({ probability: s.fileShare });
    store.add({
      id: store.nextDialogId,
      uuid: f.string.uuid(),
      botId: f.helpers.weightedArrayElement(bots),
      state,
      ip: f.internet.ipv4(),
      city: f.helpers.arrayElement(cities),
      source: f.helpers.arrayElement(s.sources),
      createdAt: created,
      lastMessageAt,
      duration: lastMessageAt === null ? 0 : Math.floor((lastMessageAt - created) / 1000),
      data: silent ? [] : undefined,
      fileId: withFile ? seedFile(f, store, config).id : undefined,
      deleted: f.datatype.boolean({ probability: s.deletedShare }),
      origin: 'seed',
    });
  }
  const dataFaker = makeFaker(seed);
  store.seededData = (dialog) => {
    dataFaker.seed([seed, dialog.id]);
    return seedData(dataFaker, store, config, dialog.fileId);
  };
}

function seedFile(f: Faker, store: Store, config: SimulatorConfig) {
  const template = f.helpers.arrayElement(FILE_TEMPLATES);
  const id = store.nextFileId;
  return store.addFile({
    id,
    name: `document-${id}.${template.extension}`,
    contentType: template.contentType,
    bytes: template.bytes,
    deleted: f.datatype.boolean({ probability: config.seed.deletedFileShare }),
  });
}

function seedData(f: Faker, store: Store, config: SimulatorConfig, fileId: number | undefined): DataItem[] {
  const types = config.seed.dataTypes;
  const items = answers(f, config);
  const file = fileId === undefined ? undefined : store.files.get(fileId);
  if (file) {
    // The answer is rendered as an absolute link once the server's address is known (Store.record).
    items.push({
      question: 'Please upload a document',
      type: f.helpers.arrayElement(types),
      answer: '',
      variable: 'document',
      fileId: file.id,
      deleted: file.deleted,
    });
  }
  return items;
}

/** What a respondent answered in a dialog: one to three data items. */
export function answers(f: Faker, config: SimulatorConfig): DataItem[] {
  return f.helpers.arrayElements(QUESTIONS, { min: 1, max: 3 }).map((q) => answered(f, config, q));
}

/** The respondent's answer to `question` (a random one by default) as a data item. */
export function answered(f: Faker, config: SimulatorConfig, question: Question = f.helpers.arrayElement(QUESTIONS)): DataItem {
  return { question: question.question, type: f.helpers.arrayElement(config.seed.dataTypes), answer: question.answer(f), variable: question.variable };
}
