// The run's JUnit file as CI dashboards read it: a test that met the vendor's contract failures is a <failure> whose
// message is the headline of its ticket (what QA files), a test that crashed (failed naming no contract failure) an
// <error>, a test that did not run or could not judge <skipped> with why. One <testsuite> per spec file. Pure: the
// run reporter writes it (Playwright's own JUnit reporter calls every thrown matcher an <error>).
import { xml } from './verdict.ts';

export interface JunitCase {
  /** The spec file, relative to the suite's folder: its <testsuite>. */
  file: string;
  /** The title path below the file. */
  name: string;
  /** The project (or run of several) it ran in. */
  project: string;
  seconds: number;
  outcome:
    | { kind: 'passed' }
    /** Contract failures: the message is the first ticket's headline; the text every failure with its ticket. */
    | { kind: 'failure'; message: string; text: string; ids: readonly string[] }
    | { kind: 'error'; message: string; text: string }
    | { kind: 'skipped'; message: string };
}

function testcase(c: JunitCase): string {
  const head = `    <testcase name="${xml(c.name)}" classname="${xml(`[${c.project}] ${c.file}`)}" time="${c.seconds.toFixed(3)}"`;
  const o = c.outcome;
  switch (o.kind) {
    case 'passed':
      return `${head}/>`;
    case 'skipped':
      return `${head}>\n      <skipped message="${xml(o.message)}"/>\n    </testcase>`;
    case 'failure': {
      const properties = o.ids.map((id) => `        <property name="contract-failure" value="${xml(id)}"/>`).join('\n');
      return `${head}>\n      <properties>\n${properties}\n      </properties>\n      <failure message="${xml(o.message)}" type="contract">${xml(o.text)}</failure>\n    </testcase>`;
    }
    case 'error':
      return `${head}>\n      <error message="${xml(o.message)}" type="crash">${xml(o.text)}</error>\n    </testcase>`;
  }
}

const tally = (cases: readonly JunitCase[]) => {
  const n = (kind: JunitCase['outcome']['kind']) => cases.filter((c) => c.outcome.kind === kind).length;
  const seconds = cases.reduce((s, c) => s + c.seconds, 0);
  return `tests="${cases.length}" failures="${n('failure')}" errors="${n('error')}" skipped="${n('skipped')}" time="${seconds.toFixed(3)}"`;
};

/** The whole file: a suite per spec file, in the order of their first test. */
export function runJunit(name: string, cases: readonly JunitCase[]): string {
  const files = [...new Set(cases.map((c) => c.file))];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" ${tally(cases)}>`,
    ...files.flatMap((file) => {
      const mine = cases.filter((c) => c.file === file);
      return [`  <testsuite name="${xml(file)}" ${tally(mine)}>`, ...mine.map(testcase), '  </testsuite>'];
    }),
    '</testsuites>',
    '',
  ].join('\n');
}
