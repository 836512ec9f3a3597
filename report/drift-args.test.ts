import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArgsError, parseContractArgs } from './drift-args.ts';

const none = { strict: false };

test('baseline switches are taken, everything else passes through to playwright in order', () => {
  assert.deepEqual(parseContractArgs(['--project', 'v2', '--baseline', 'simulator', '-g', 'lists', '--strict'], none), {
    baseline: 'simulator',
    strict: true,
    listChecks: false,
    playwright: ['--project', 'v2', '-g', 'lists'],
  });
  assert.equal(parseContractArgs(['--baseline=reports/old/fingerprint.json'], none).baseline, 'reports/old/fingerprint.json');
});

test('BASELINE and STRICT_BASELINE are defaults the switches override', () => {
  assert.deepEqual(parseContractArgs([], { baseline: 'staging', strict: true }), { baseline: 'staging', strict: true, listChecks: false, playwright: [] });
  assert.equal(parseContractArgs(['--baseline', 'next'], { baseline: 'staging', strict: false }).baseline, 'next');
});

test('a baseline switch without a value, or --strict without a baseline, is one clear error', () => {
  assert.throws(() => parseContractArgs(['--baseline'], none), ArgsError);
  assert.throws(() => parseContractArgs(['--baseline', '--strict'], none), /needs a NAME/);
  assert.throws(() => parseContractArgs(['--strict'], none), /--strict needs a baseline/);
});

test('--checks and --exclude-checks take names separated by commas, over CHECKS and EXCLUDE_CHECKS; --list-checks runs nothing', () => {
  const args = parseContractArgs(['--checks', 'effect_of_start,pagination_conformance', '--exclude-checks=meaning_conformance.ip', '--list-checks'], {
    ...none,
    checks: ['not_a_server_error'],
  });
  assert.deepEqual(args.checks, ['effect_of_start', 'pagination_conformance']);
  assert.deepEqual(args.excludeChecks, ['meaning_conformance.ip']);
  assert.equal(args.listChecks, true);
  assert.throws(() => parseContractArgs(['--exclude-checks'], none), /--exclude-checks needs check names/);
});
