// Safety rails of the load scripts: where traffic may go and how much of it (what never reaches a report: http/redact.ts).
// Pure (no URL class, no Buffer): the k6 scripts run these checks in their init context and again in setup() on the
// consolidated options (CLI flags included), before any request.

export type Env = Record<string, string | undefined>;

export const DEFAULT_ALLOW_HOSTS: readonly string[] = ['localhost', '127.0.0.1'];

/** Ceilings a run may not pass unless LOAD_I_KNOW=1 and LOAD_MAX_RATE / LOAD_MAX_VUS / LOAD_MAX_DURATION say so. */
export interface LoadCaps {
  /** Requests (iterations) started per second, summed over the scenarios running at the same time. */
  maxRate: number;
  /** VUs that may exist at the same time. */
  maxVUs: number;
  /** Wall time of the whole run, graceful stops included. */
  maxDurationSeconds: number;
}

export const DEFAULT_CAPS: LoadCaps = { maxRate: 200, maxVUs: 50, maxDurationSeconds: 15 * 60 };

/** The executor fields the checks read; structurally compatible with k6's scenario options. */
export interface ScenarioLike {
  executor: string;
  startTime?: string;
  gracefulStop?: string;
  duration?: string;
  maxDuration?: string;
  rate?: number;
  timeUnit?: string;
  startRate?: number;
  stages?: ReadonlyArray<{ duration: string; target: number }>;
  preAllocatedVUs?: number;
  maxVUs?: number;
  vus?: number;
  startVUs?: number;
}

/** The k6 options the checks read; k6's Options type is assignable to it. */
export interface OptionsLike {
  scenarios?: Record<string, ScenarioLike>;
  vus?: number;
  duration?: string;
  stages?: ReadonlyArray<{ duration: string; target: number }>;
  hosts?: Record<string, unknown>;
  maxRedirects?: number;
}

/** What a set of scenarios asks for at its peak. */
export interface PeakLoad {
  rate: number;
  vus: number;
  durationSeconds: number;
}

export class LoadSafetyError extends Error {
  override name = 'LoadSafetyError';
}

/** The allow list: LOAD_ALLOW_HOSTS (comma-separated, exact host names or IPs), else localhost and 127.0.0.1. */
export function allowedHosts(env: Env): string[] {
  const listed = (env.LOAD_ALLOW_HOSTS ?? '')
    .split(',')
    .map((host) =>
      host
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter(Boolean);
  return listed.length > 0 ? listed : [...DEFAULT_ALLOW_HOSTS];
}

/**
 * The host of an http(s) base URL, lower-cased, IPv6 without brackets; throws on anything that could make the host
 * ambiguous between parsers: userinfo (http://localhost@evil.com), backslashes, percent-escapes, odd characters.
 */
export function hostOf(baseUrl: string): string {
  const match = /^(https?):\/\/([^/?#]*)(?:[/?#]|$)/i.exec(baseUrl);
  // The messages never echo the URL: a malformed one may carry credentials.
  if (!match) throw new LoadSafetyError('API_BASE_URL must start with http:// or https://');
  const authority = match[2] ?? '';
  if (/[@\\%\s]/.test(baseUrl.slice(0, match[0].length))) {
    throw new LoadSafetyError('API_BASE_URL must not carry userinfo, backslashes, escapes or spaces before its path');
  }
  const hostPort = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(authority);
  if (!hostPort) throw new LoadSafetyError('API_BASE_URL has an unusable host part: give a host name or IP address, and a port');
  return (hostPort[1] ?? '').toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/** Caps of this run: the defaults, or the LOAD_MAX_* values when LOAD_I_KNOW=1 confirms them. */
export function loadCaps(env: Env): LoadCaps {
  const overrides = {
    maxRate: env.LOAD_MAX_RATE,
    maxVUs: env.LOAD_MAX_VUS,
    maxDurationSeconds: env.LOAD_MAX_DURATION,
  };
  const given = Object.entries(overrides).filter(([, value]) => value !== undefined && value !== '');
  if (given.length === 0) return { ...DEFAULT_CAPS };
  if (env.LOAD_I_KNOW !== '1') {
    throw new LoadSafetyError('LOAD_MAX_RATE, LOAD_MAX_VUS and LOAD_MAX_DURATION raise the safety caps only together with LOAD_I_KNOW=1');
  }
  const caps = { ...DEFAULT_CAPS };
  for (const [key, value] of given) {
    const parsed = key === 'maxDurationSeconds' ? durationSeconds(value!) : Number(value);
    if (!(parsed > 0)) throw new LoadSafetyError(`${key} override ${JSON.stringify(value)} is not a positive number`);
    caps[key as keyof LoadCaps] = parsed;
  }
  return caps;
}

/** k6 duration ("1h2m3s", "500ms", "1.5s") or a plain number of seconds, in seconds. */
export function durationSeconds(text: string): number {
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9 };
  let total = 0;
  let rest = text.trim();
  while (rest.length > 0) {
    const part = /^(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/.exec(rest);
    if (!part) return NaN;
    total += Number(part[1]) * unit[part[2]!]!;
    rest = rest.slice(part[0].length);
  }
  return text.trim() === '' ? NaN : total;
}

interface Segment {
  from: number;
  to: number;
  rateFrom: number;
  rateTo: number;
  vus: number;
}

/** Each scenario as contiguous time segments of a linear arrival rate (0 for closed-model executors) and VUs. */
function timelines(options: OptionsLike): Segment[][] {
  const scenarios = options.scenarios ?? implicitScenarios(options);
  return Object.values(scenarios).map((s) => {
    const segments: Segment[] = [];
    let t = durationSeconds(s.startTime ?? '0s');
    const perSecond = 1 / durationSeconds(s.timeUnit ?? '1s');
    const ramping = s.executor === 'ramping-arrival-rate' || s.executor === 'ramping-vus';
    const stageVUs = s.executor === 'ramping-vus' ? (s.stages ?? []).map((stage) => stage.target) : [];
    const vus = Math.max(s.maxVUs ?? 0, s.preAllocatedVUs ?? 0, s.vus ?? 0, s.startVUs ?? 0, ...stageVUs);
    if (ramping) {
      let level = s.executor === 'ramping-arrival-rate' ? (s.startRate ?? 0) * perSecond : 0;
      for (const stage of s.stages ?? []) {
        const target = s.executor === 'ramping-arrival-rate' ? stage.target * perSecond : 0;
        segments.push({ from: t, to: t + durationSeconds(stage.duration), rateFrom: level, rateTo: target, vus });
        t += durationSeconds(stage.duration);
        level = target;
      }
    } else {
      const rate = s.executor === 'constant-arrival-rate' ? (s.rate ?? 0) * perSecond : 0;
      const length = durationSeconds(s.duration ?? s.maxDuration ?? '10m');
      segments.push({ from: t, to: t + length, rateFrom: rate, rateTo: rate, vus });
      t += length;
    }
    // Iterations in flight may go on for the graceful stop: VUs still count, no new arrivals.
    segments.push({ from: t, to: t + durationSeconds(s.gracefulStop ?? '30s'), rateFrom: 0, rateTo: 0, vus });
    return segments;
  });
}

/** k6's shortcuts (vus + duration, stages) stand for one scenario. */
function implicitScenarios(options: OptionsLike): Record<string, ScenarioLike> {
  if (options.stages) return { default: { executor: 'ramping-vus', startVUs: options.vus ?? 1, stages: options.stages } };
  return { default: { executor: 'constant-vus', vus: options.vus ?? 1, duration: options.duration ?? '0s' } };
}

/** Peak arrival rate and VUs over time (scenarios overlapping in time add up), and the total duration. */
export function peakLoad(options: OptionsLike): PeakLoad {
  const scenarios = timelines(options);
  const instants = [...new Set(scenarios.flat().flatMap((s) => [s.from, s.to]))];
  const rateAt = (s: Segment, t: number) => s.rateFrom + ((s.rateTo - s.rateFrom) * (t - s.from)) / (s.to - s.from);
  // Segments are half-open, so one stage ending where the next starts never counts twice. Values are piecewise
  // linear, so their sum peaks at a boundary: just after it or just before it.
  const sumAt = (t: number, side: 'before' | 'after', value: (s: Segment) => number) =>
    scenarios.reduce((sum, segments) => {
      const running = segments.filter((s) => (side === 'after' ? s.from <= t && t < s.to : s.from < t && t <= s.to));
      return sum + Math.max(0, ...running.map(value));
    }, 0);
  const peak = (value: (s: Segment, t: number) => number) =>
    Math.max(0, ...instants.flatMap((t) => [sumAt(t, 'before', (s) => value(s, t)), sumAt(t, 'after', (s) => value(s, t))]));
  return {
    rate: peak(rateAt),
    vus: peak((s) => s.vus),
    durationSeconds: Math.max(0, ...scenarios.flat().map((s) => s.to)),
  };
}

/** Every reason not to run: host outside the allow list, caps passed, hosts remapped, redirects followed. */
export function safetyProblems(env: Env, baseUrl: string, options: OptionsLike): string[] {
  const problems: string[] = [];
  try {
    const host = hostOf(baseUrl);
    const allowed = allowedHosts(env);
    if (!allowed.includes(host)) problems.push(`host ${host} is not in LOAD_ALLOW_HOSTS (${allowed.join(', ')})`);
  } catch (error) {
    problems.push((error as Error).message);
  }
  let caps = DEFAULT_CAPS;
  try {
    caps = loadCaps(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const peak = peakLoad(options);
  const override = 'raise it with LOAD_I_KNOW=1 and';
  if (peak.rate > caps.maxRate) problems.push(`peak rate ${round(peak.rate)}/s is above the cap of ${caps.maxRate}/s (${override} LOAD_MAX_RATE)`);
  if (peak.vus > caps.maxVUs) problems.push(`peak of ${peak.vus} VUs is above the cap of ${caps.maxVUs} (${override} LOAD_MAX_VUS)`);
  if (peak.durationSeconds > caps.maxDurationSeconds) {
    problems.push(`run of up to ${round(peak.durationSeconds)} s is above the cap of ${caps.maxDurationSeconds} s (${override} LOAD_MAX_DURATION)`);
  }
  if (options.hosts && Object.keys(options.hosts).length > 0) problems.push('options.hosts remaps host names: the allow list could not hold');
  if (options.maxRedirects !== 0) problems.push('options.maxRedirects must be 0: a redirect could leave the allow list');
  return problems;
}

/** Throws one LoadSafetyError naming every problem; the k6 scripts call it before their first request. */
export function assertLoadSafety(env: Env, baseUrl: string, options: OptionsLike): void {
  const problems = safetyProblems(env, baseUrl, options);
  if (problems.length > 0) throw new LoadSafetyError(`refusing to run: ${problems.join('; ')}`);
}

const round = (n: number) => Math.round(n * 100) / 100;
