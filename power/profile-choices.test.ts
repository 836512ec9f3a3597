import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { observedOverlay } from '../report/overlay.ts';
import { differingSettings, expectedChanges, overlayMismatch, shapeProblems } from './profile-choices.ts';

test('the settings two configs differ in are their differing leaves, arrays and nulls included', () => {
  const base = { statuses: { created: 'new', operator: 'operator' }, send: { textFields: ['text'], dataItem: null }, auth: { login: 'a' } };
  const other = { statuses: { created: 'draft', operator: 'operator' }, send: { textFields: ['message'], dataItem: { type: 'Text' } }, auth: { login: 'b' } };
  assert.deepEqual(differingSettings(base, other), ['auth.login', 'send.dataItem', 'send.textFields', 'statuses.created']);
  assert.deepEqual(differingSettings(base, base), []);
});

test('each differing choice names the observations that must change; identity is no choice; unknown settings are named', () => {
  assert.deepEqual(expectedChanges(['statuses.created', 'callback.encoding', 'callback.fields.token', 'auth.login', 'bots']), {
    ids: ['callback.shape', 'status.created-not-started', 'transition.command.from-created', 'transition.send.from-created'],
    unmapped: [],
  });
  assert.deepEqual(expectedChanges(['errors.format', 'something.new']).unmapped, ['something.new']);
  assert.deepEqual(expectedChanges(['errors.format']).ids, ['error.400', 'error.401', 'error.403', 'error.404']);
});

test('a profile overlay must differ from the default exactly where its changed observations act', () => {
  const item = (id: string, observed: unknown): FingerprintItem => ({ id, section: '3', operation: '', item: id, observed });
  const base = observedOverlay([item('status.operator', 'operator')], null);
  const other = observedOverlay([item('status.operator', 'waiting-operator')], null);
  const target = '$.components.schemas.DialogListItemBase.properties.status';
  assert.deepEqual(overlayMismatch(base, other, ['status.operator']), { differing: [target], problems: [] });
  assert.deepEqual(overlayMismatch(base, other, []).problems, [`differs with no observation changed: ${target}`]);
  assert.deepEqual(overlayMismatch(base, base, ['status.operator']).problems, [`same although its observations changed: ${target}`]);
});

test('a profile that configures no shape must discover both, each verified by its effect; one whose refusals name nothing need not', () => {
  const found = (template: string | null, verifiedBy: string | null) => ({ template, verifiedBy, how: template ? 'learned' : 'undetermined: set it' });
  const moved = found('{"command":"goto","params":{"botId":{{botId}}}}', 'dialog moved to the target bot');
  assert.deepEqual(shapeProblems('refusal-template', { send: found('{"m":"{{text}}"}', 'updated moved'), command: moved }), []);
  assert.deepEqual(shapeProblems('refusal-template', { send: found(null, null), command: found('{"x":{{botId}}}', 'the only shape accepted') }), [
    'no send shape discovered with no configuration: undetermined: set it',
    'the command shape {"x":{{botId}}} not verified by its effect (the only shape accepted)',
  ]);
  assert.deepEqual(shapeProblems('refusal-silent', { send: found(null, null), command: found(null, null) }), []);
  // A configured shape is the user's: only the other is the run's to discover.
  assert.deepEqual(shapeProblems('string-ids-query', { send: found('{"message":"{{text}}"}', 'updated moved'), command: found(null, null) }), []);
  assert.deepEqual(shapeProblems('refusal-template', undefined), ['the run recorded no request shapes']);
});
