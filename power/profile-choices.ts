// Which observations must change when a vendor makes another choice where the spec says "not shown": the oracle of
// the vendor-profile runs (npm run profiles). A profile differs from the default simulator in some settings; each
// setting names the observation ids that show it. A profile passes when its run is green, has no breaking item,
// and its drift report against the default's baseline lists every one of those ids as changed. Pure.
import { differingTargets, type Overlay } from '../report/overlay.ts';

/**
 * What a run against each profile configures, as its user would (from the vendor's documentation): the rest is
 * discovered. A profile not named sets neither (the contract run then skips what needs a shape it cannot discover).
 */
export const PROFILE_CONFIGURES: Readonly<Record<string, ReadonlyArray<'SEND_BODY' | 'COMMAND_BODY'>>> = {
  'envelope-multipart': ['SEND_BODY', 'COMMAND_BODY'],
  'string-ids-query': ['COMMAND_BODY'],
  'form-text-acme': ['COMMAND_BODY'],
  'nested-put-empty': ['COMMAND_BODY'],
};

/**
 * Profiles whose refusals name nothing (refusal-silent): their runs skip what needs a shape and say what to set. Every
 * other profile that configures no shape is a vendor whose shapes the run must discover with no configuration,
 * verified by their effect, so that none of its tests is skipped for want of one (issue 48).
 */
export const NAMES_NOTHING: readonly string[] = ['refusal-silent'];

/** The effects that confirm a shape: its message seen, the dialog moved. */
const EFFECTS = ['text in the record', 'updated moved', 'dialog moved to the target bot'];

/** What is wrong with the shapes a profile's run settled: each one it must discover and did not, or took unconfirmed. */
export function shapeProblems(
  profile: string,
  shapes: Record<'send' | 'command', { template: string | null; verifiedBy: string | null; how: string }> | undefined,
): string[] {
  const configured = PROFILE_CONFIGURES[profile] ?? [];
  if (NAMES_NOTHING.includes(profile)) return [];
  if (!shapes) return ['the run recorded no request shapes'];
  return (['send', 'command'] as const).flatMap((kind) => {
    if (configured.includes(kind === 'send' ? 'SEND_BODY' : 'COMMAND_BODY')) return [];
    const shape = shapes[kind];
    if (shape.template === null) return [`no ${kind} shape discovered with no configuration: ${shape.how}`];
    return EFFECTS.includes(shape.verifiedBy ?? '') ? [] : [`the ${kind} shape ${shape.template} not verified by its effect (${shape.verifiedBy})`];
  });
}

/** Setting (a dotted path of the simulator config, or a prefix of several) → observation ids that show it. */
export const CHOICE_OBSERVATIONS: ReadonlyArray<{ setting: string; ids: readonly string[] }> = [
  // The status read after a trigger refused on a dialog not started, or after one that leaves it with the operator.
  { setting: 'statuses.created', ids: ['status.created-not-started', 'transition.send.from-created', 'transition.command.from-created'] },
  {
    setting: 'statuses.operator',
    ids: [
      'status.operator',
      'transition.stop.from-created',
      'transition.stop.from-started',
      'transition.stop.from-in-process',
      'transition.stop.from-operator',
      'transition.send.from-operator',
      'transition.command.from-operator',
    ],
  },
  { setting: 'send.textFields', ids: ['body.send.accepted'] },
  { setting: 'send.lenient', ids: ['lenience.send'] },
  {
    setting: 'send.allowedStatuses',
    ids: ['transition.send.from-created', 'transition.send.from-started', 'transition.send.from-in-process', 'transition.send.from-operator'],
  },
  { setting: 'send.dataItem', ids: ['send.in-record'] },
  { setting: 'command.commandField', ids: ['body.command.accepted'] },
  { setting: 'command.botField', ids: ['body.command.accepted'] },
  { setting: 'command.botType', ids: ['body.command.accepted'] },
  { setting: 'command.success', ids: ['response.command'] },
  { setting: 'command.lenient', ids: ['lenience.command'] },
  { setting: 'command.unknownBotStatus', ids: ['command.unknown-bot'] },
  { setting: 'validation.dialogBeforeBody', ids: ['validation.order'] },
  { setting: 'errors.format', ids: ['error.400', 'error.401', 'error.403', 'error.404'] },
  { setting: 'errors.custom', ids: ['error.400', 'error.401', 'error.403', 'error.404'] },
  // A refused body field in the vendor's words: what the shapes were learned from (their evidence quotes it).
  { setting: 'errors.wording', ids: ['body.send.accepted', 'body.command.accepted'] },
  { setting: 'callback', ids: ['callback.shape'] },
  { setting: 'create.v2Get', ids: ['body.getV2DialogCreate'] },
  { setting: 'create.startedWithoutResponse', ids: ['response.create.response-false'] },
  { setting: 'create.responseDefault', ids: ['response.create.default'] },
  { setting: 'create.variableItem', ids: ['variables.in-record'] },
  { setting: 'transitions.startCompleted', ids: ['transition.start.from-completed'] },
  { setting: 'limits.rate', ids: ['rate.limit'] },
  { setting: 'limits.maxPageCount', ids: ['limit.maxPageCount'] },
  { setting: 'limits.maxTextLength', ids: ['limit.maxTextLength.send', 'limit.maxTextLength.sendMessage'] },
  { setting: 'limits.maxVariablesBytes', ids: ['limit.maxVariablesBytes'] },
  { setting: 'format.updatedOffset', ids: ['updated.zone'] },
  { setting: 'seed.sources', ids: ['sources.seen'] },
  { setting: 'seed.dataTypes', ids: ['data.types.seen'] },
  { setting: 'lists.defaultPageCount', ids: ['default.v1.PageCount', 'default.v2.PageCount'] },
  { setting: 'lists.defaultPageNumber', ids: ['default.v1.PageNumber', 'default.v2.PageNumber'] },
  { setting: 'lists.order', ids: ['lists.order'] },
  { setting: 'lists.lagMs', ids: ['lists.lag'] },
  { setting: 'clock.offsetSeconds', ids: ['clock.offset', 'clock.date-header'] },
  { setting: 'send.movesUpdated', ids: ['send.moves-updated'] },
  { setting: 'files.v2', ids: ['file.v2.download'] },
  { setting: 'vertex.requireText', ids: ['vertex.send-message.fields'] },
];

/**
 * Settings that are no vendor choice the suite observes: who the target is (credentials, bots: the user's .env),
 * how much history it holds and how it is spread, and the simulator's own plumbing.
 */
export const NOT_CHOICES: readonly string[] = [
  'auth',
  'bots',
  'blocked',
  'seed.anchor',
  'seed.days',
  'seed.firstDialogId',
  'seed.firstFileId',
  'seed.statusWeights',
  'seed.deletedShare',
  'seed.silentInProcessShare',
  'seed.fileShare',
  'seed.deletedFileShare',
  'callback.timeoutMs',
  'limits.maxBodyBytes',
  'files.linkBase',
];

const covers = (prefix: string, path: string) => path === prefix || path.startsWith(`${prefix}.`);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Dotted paths of the leaves (scalars, arrays, null) where two configs differ. */
export function differingSettings(base: unknown, other: unknown, at = ''): string[] {
  if (isObject(base) && isObject(other)) {
    return [...new Set([...Object.keys(base), ...Object.keys(other)])]
      .sort()
      .flatMap((key) => differingSettings(base[key], other[key], at ? `${at}.${key}` : key));
  }
  return JSON.stringify(base) === JSON.stringify(other) ? [] : [at];
}

/** The observation ids a profile's differing settings must change, and the settings nothing maps. */
export function expectedChanges(settings: readonly string[]): { ids: string[]; unmapped: string[] } {
  const ids = new Set<string>();
  const unmapped: string[] = [];
  for (const setting of settings) {
    if (NOT_CHOICES.some((prefix) => covers(prefix, setting))) continue;
    const mapped = CHOICE_OBSERVATIONS.filter((c) => covers(c.setting, setting));
    if (mapped.length === 0) unmapped.push(setting);
    for (const c of mapped) for (const id of c.ids) ids.add(id);
  }
  return { ids: [...ids].sort(), unmapped };
}

/**
 * A profile's overlay against the default's: the targets that differ, and what is wrong with them. They must
 * differ exactly at the targets of the actions, in either overlay, built from an observation the profile changed.
 */
export function overlayMismatch(base: Overlay, overlay: Overlay, changed: readonly string[]): { differing: string[]; problems: string[] } {
  const differing = differingTargets(base, overlay);
  const expected = new Set(
    [...base.actions, ...overlay.actions].filter((a) => a['x-observed'].observations.some((id) => changed.includes(id))).map((a) => a.target),
  );
  const problems = [
    ...differing.filter((t) => !expected.has(t)).map((t) => `differs with no observation changed: ${t}`),
    ...[...expected].filter((t) => !differing.includes(t)).map((t) => `same although its observations changed: ${t}`),
  ];
  return { differing, problems };
}
