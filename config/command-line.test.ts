import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asksForHelp, CommandLineError, helpText, readCommandLine, type CommandSpec } from './command-line.ts';

const SPEC = {
  script: 'demo',
  usage: ['[--name NAME]... [--dry] FILE'],
  summary: 'Does a demo.',
  positionals: [['FILE', 'the file to read']],
  options: {
    name: { type: 'string', value: 'NAME', multiple: true, description: 'a name to greet', default: 'world', env: 'DEMO_NAME' },
    dry: { type: 'boolean', short: 'n', description: 'print, do not write' },
  },
  environment: [['DEMO_NAME', 'the name when --name is not given']],
  exit: '0 done; 2 bad input.',
  examples: ['npm run demo -- --name Ada file.txt'],
} as const satisfies CommandSpec;

test('the help is rendered from the table: usage, each option with its value, default and variable, environment, exit, example', () => {
  const text = helpText(SPEC);
  assert.ok(text.startsWith('usage: npm run demo -- [--name NAME]... [--dry] FILE\n\nDoes a demo.\n'));
  assert.match(text, /\n {2}--name NAME {13}a name to greet \(repeatable; or DEMO_NAME; default: world\)\n/);
  assert.match(text, /\n {2}-n, --dry {15}print, do not write\n/);
  assert.match(text, /\n {2}-h, --help {14}this text\n/);
  assert.match(text, /\nArguments:\n {2}FILE {20}the file to read\n/);
  assert.match(text, /\nEnvironment \(.*\):\n {2}DEMO_NAME {15}the name when --name is not given\n/);
  assert.match(text, /\nExit: 0 done; 2 bad input\.\n\nExample:\n {2}npm run demo -- --name Ada file\.txt\n$/);
  assert.ok(
    text.split('\n').every((line) => line.length <= 120),
    'lines wrap at 118 columns',
  );
});

test('--help and -h ask for help anywhere before --; the values and positionals otherwise', () => {
  assert.equal(readCommandLine(SPEC, ['file', '-h']), 'help');
  assert.equal(readCommandLine(SPEC, ['--help', '--bogus']), 'help');
  assert.equal(asksForHelp(['--', '--help']), false);
  assert.deepEqual(readCommandLine(SPEC, ['--name', 'a', '-n', '--name=b', 'f']), { values: { name: ['a', 'b'], dry: true }, positionals: ['f'] });
});

test('a bad argument is one line naming it and pointing at --help', () => {
  const cases: Array<[string[], string]> = [
    [['--bogus'], 'unknown option --bogus'],
    [['--name'], '--name needs a value (NAME)'],
    [['--name', '-x'], '--name takes a value that starts with "-" only as --name=NAME'],
    [['--dry=yes'], '--dry takes no value'],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => readCommandLine(SPEC, argv),
      (err: Error) => err instanceof CommandLineError && err.message === `${message}; see npm run demo -- --help`,
      argv.join(' '),
    );
  }
  assert.throws(
    () => readCommandLine({ ...SPEC, positionals: undefined }, ['file']),
    /^CommandLineError: unexpected argument file; see npm run demo -- --help$/,
  );
});
