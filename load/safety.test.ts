import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allowedHosts,
  assertLoadSafety,
  DEFAULT_CAPS,
  durationSeconds,
  hostOf,
  LoadSafetyError,
  loadCaps,
  peakLoad,
  safetyProblems,
  type OptionsLike,
} from './safety.ts';

const small: OptionsLike = {
  maxRedirects: 0,
  scenarios: { list: { executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '30s', preAllocatedVUs: 5, maxVUs: 10 } },
};

test('accepts the default local targets', () => {
  for (const url of ['http://127.0.0.1:4010', 'http://localhost:4010/', 'HTTP://LOCALHOST:4010/base']) {
    assert.deepEqual(safetyProblems({}, url, small), [], url);
  }
});

const refused: Array<[string, string]> = [
  ['a host outside the allow list', 'https://staging.example.com'],
  ['a suffix trick', 'http://localhost.evil.com:4010'],
  ['a prefix trick', 'http://127.0.0.1.nip.io'],
  ['userinfo naming an allowed host', 'http://localhost@evil.com'],
  ['userinfo with a port', 'http://localhost:4010@evil.com/api'],
  ['a backslash before @', 'http://localhost\\@evil.com'],
  ['a percent-escaped host', 'http://%6cocalhost'],
  ['a trailing-dot host', 'http://localhost./'],
  ['a scheme other than http(s)', 'ftp://localhost'],
  ['an IP spelled differently', 'http://2130706433'],
  ['no scheme at all', 'localhost:4010'],
];
for (const [what, url] of refused) {
  test(`refuses ${what}: ${url}`, () => {
    assert.throws(() => assertLoadSafety({}, url, small), LoadSafetyError);
  });
}

test('refusals never echo the URL, which may carry credentials', () => {
  for (const url of ['ftp://user:hunter22@localhost', 'http://user:hunter22@localhost', 'http://local host:hunter22']) {
    assert.throws(
      () => hostOf(url),
      (error: Error) => !error.message.includes('hunter22'),
    );
  }
});

test('LOAD_ALLOW_HOSTS replaces the default list with exact names', () => {
  const env = { LOAD_ALLOW_HOSTS: ' Staging.Example.com , [::1] ' };
  assert.deepEqual(allowedHosts(env), ['staging.example.com', '::1']);
  assert.deepEqual(safetyProblems(env, 'https://staging.example.com', small), []);
  assert.deepEqual(safetyProblems(env, 'http://[::1]:4010', small), []);
  assert.match(safetyProblems(env, 'http://localhost:4010', small).join(), /not in LOAD_ALLOW_HOSTS/);
  assert.equal(hostOf('http://[::1]:4010/api'), '::1');
});

test('caps need LOAD_I_KNOW=1 to be raised', () => {
  assert.deepEqual(loadCaps({}), DEFAULT_CAPS);
  assert.throws(() => loadCaps({ LOAD_MAX_RATE: '5000' }), /LOAD_I_KNOW=1/);
  assert.deepEqual(loadCaps({ LOAD_I_KNOW: '1', LOAD_MAX_RATE: '5000', LOAD_MAX_DURATION: '1h' }), {
    ...DEFAULT_CAPS,
    maxRate: 5000,
    maxDurationSeconds: 3600,
  });
  assert.throws(() => loadCaps({ LOAD_I_KNOW: '1', LOAD_MAX_VUS: 'many' }), /not a positive number/);
});

test('refuses a plan above the caps and names each cap and its override', () => {
  const heavy: OptionsLike = {
    maxRedirects: 0,
    scenarios: {
      a: { executor: 'constant-arrival-rate', rate: 150, duration: '20m', preAllocatedVUs: 40, maxVUs: 40 },
      b: { executor: 'constant-arrival-rate', rate: 100, duration: '1m', preAllocatedVUs: 20, maxVUs: 20 },
    },
  };
  const problems = safetyProblems({}, 'http://127.0.0.1:4010', heavy).join('\n');
  assert.match(problems, /peak rate 250\/s .* LOAD_MAX_RATE/);
  assert.match(problems, /60 VUs .* LOAD_MAX_VUS/);
  assert.match(problems, /LOAD_MAX_DURATION/);
  const allowed = { LOAD_I_KNOW: '1', LOAD_MAX_RATE: '300', LOAD_MAX_VUS: '60', LOAD_MAX_DURATION: '30m' };
  assert.deepEqual(safetyProblems(allowed, 'http://127.0.0.1:4010', heavy), []);
});

test('refuses remapped hosts and followed redirects', () => {
  const problems = safetyProblems({}, 'http://localhost:4010', { ...small, hosts: { localhost: '10.0.0.7' }, maxRedirects: 10 });
  assert.equal(problems.length, 2);
});

test('the peak follows scenarios in time: sequential stages do not add up, overlapping ones do', () => {
  const ladder: OptionsLike = {
    scenarios: {
      s1: { executor: 'constant-arrival-rate', rate: 10, duration: '10s', maxVUs: 5, gracefulStop: '2s' },
      s2: { executor: 'constant-arrival-rate', rate: 20, duration: '10s', startTime: '12s', maxVUs: 8, gracefulStop: '2s' },
      s3: { executor: 'constant-arrival-rate', rate: 40, duration: '10s', startTime: '10s', maxVUs: 8, gracefulStop: '2s' },
    },
  };
  assert.deepEqual(peakLoad(ladder), { rate: 60, vus: 16, durationSeconds: 24 });
  const ramp: OptionsLike = {
    scenarios: {
      r: {
        executor: 'ramping-arrival-rate',
        startRate: 0,
        timeUnit: '1m',
        stages: [
          { duration: '1m', target: 600 },
          { duration: '1m', target: 1200 },
          { duration: '30s', target: 0 },
        ],
        maxVUs: 4,
        gracefulStop: '0s',
      },
    },
  };
  assert.deepEqual(peakLoad(ramp), { rate: 20, vus: 4, durationSeconds: 150 });
  assert.deepEqual(peakLoad({ vus: 3, duration: '1m' }), { rate: 0, vus: 3, durationSeconds: 90 });
});

test('reads k6 durations', () => {
  assert.equal(durationSeconds('1h2m3s'), 3723);
  assert.equal(durationSeconds('500ms'), 0.5);
  assert.equal(durationSeconds('90'), 90);
  assert.ok(Number.isNaN(durationSeconds('soon')));
});
