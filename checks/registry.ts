// The project's checks, by name: the one list --list-checks prints, tests call by name, the recording judge applies
// and the meaning audit names. A team's checks (CHECKS_MODULE) join them in a CheckRegistry of the run.
import type { AnyCheck, Check } from './check.ts';
import * as dialogs from './dialogs.ts';
import * as effects from './effects.ts';
import * as filters from './filters.ts';
import * as meanings from './meanings.ts';
import * as pagination from './pagination.ts';
import * as response from './response.ts';
import * as run from './run.ts';
import * as transport from './transport.ts';

const CHECKS = [
  response.notAServerError,
  response.statusCodeConformance,
  response.contentTypeConformance,
  response.responseSchemaConformance,
  response.ignoredAuth,
  response.negativeDataRejection,
  pagination.itemKeys,
  pagination.pageSizeKept,
  pagination.pageNumbers,
  pagination.pagesDisjoint,
  pagination.walkTotals,
  pagination.lastPage,
  filters.botTotals,
  filters.botFilter,
  filters.createdWindow,
  filters.updatedOutside,
  filters.updatedMonotone,
  filters.updatedAfterLast,
  meanings.ipMeaning,
  meanings.locationMeaning,
  meanings.durationMeaning,
  meanings.listedUpdated,
  meanings.updatedInLife,
  meanings.ownData,
  meanings.messageIdNew,
  meanings.sentAt,
  dialogs.recordMatchesListItem,
  dialogs.versionsAgree,
  dialogs.versionsListSameDialogs,
  dialogs.createdNewId,
  dialogs.createdListed,
  dialogs.createdOneDialog,
  dialogs.noIdsWithResponseFalse,
  dialogs.nameNumberAndCity,
  dialogs.nameOwnNumber,
  effects.createNotStarted,
  effects.createsAlike,
  effects.postCreateStarts,
  effects.createNotOperator,
  effects.variablesPassed,
  effects.startResumes,
  effects.startAfterMove,
  effects.stopConnectsOperator,
  effects.stopAfterMove,
  effects.gotoMoves,
  effects.gotoAfterMove,
  effects.sendAsBaselineSaw,
  effects.sendAfterMove,
  effects.textAsSent,
  effects.variablesAsPassed,
  transport.fileBytes,
  transport.sameFile,
  transport.completeBody,
  transport.customBlockCall,
  run.testPasses,
  run.unknownsObserved,
  run.pairsExercised,
  run.transitionsWalked,
  run.variantsExercised,
  run.bodyShapeEstablished,
] as const;

type Listed = (typeof CHECKS)[number];

/** The name of a check of the project. */
export type CheckName = Listed['name'];

/** What a check of the project judges. */
export type InputOf<N extends CheckName> = Extract<Listed, { name: N }> extends Check<infer I, N> ? I : never;

/** Every check of the project, in the order --list-checks prints them. */
export const BUILT_IN: readonly AnyCheck[] = CHECKS;

/** A check of the project by its name. */
export const builtIn = <N extends CheckName>(name: N): Check<InputOf<N>> => CHECKS.find((c) => c.name === name) as unknown as Check<InputOf<N>>;
