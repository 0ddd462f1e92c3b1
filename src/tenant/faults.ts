/**
 * Fault injection for tests of the client. A spec is a comma-separated list of `name=value`:
 *
 *   latency=MS          every answer waits MS milliseconds first (also the token endpoint)
 *   jitter=MS           plus a uniform 0..MS more (also the token endpoint)
 *   error5xx=P          share P of requests fail before they are handled: 500 INTERNAL or 503 UNAVAILABLE
 *   rate429=P           share P of requests get 429 RESOURCE_EXHAUSTED with a Retry-After header
 *   retryAfter=N|date   Retry-After of those 429s: N seconds (default 1) or `date`, an HTTP-date 1 s ahead
 *   rps=N               at most N requests per second (token bucket, burst N); beyond: 429 + Retry-After
 *   truncate=P          share P of 200 answers announce their full Content-Length, send half, and cut the connection
 *   html=P              share P of requests get a 200 with an HTML page (a portal/login page), not handled
 *   dropAfterApply=P    share P of mutations are applied, then the connection is destroyed without an answer
 *   aborted=P           share P of mutations are refused with 409 ABORTED (a concurrent change) before they are
 *                       handled: nothing is applied, and sending it again later may well succeed
 *   emptyPages=P        share P of list/search pages come back empty with a live nextPageToken (same place)
 *   repeatRow=P         share P of list/search pages list their first row twice
 *   cycleTokens=N       list/search page tokens go round in a cycle of N: the page fetched with a
 *                       walk's N-th token hands back its first token (N=1: that token names itself;
 *                       N=2: A, B, A, B…), so a client that follows them never reaches the end
 *   tokenExpireEarly=P  share P of access tokens stop working after their first API request, well
 *                       before `expires_in` (the client must re-mint once and retry once)
 *
 * P is a probability in [0, 1]; 1 makes the fault certain, which tests use to force one. Faults
 * apply to /api/v1 only (never to /_tenant/*); the token endpoint gets latency and jitter only.
 * Decisions are drawn from PRNG streams seeded by the tenant's seed, one stream per fault kind, so
 * the same seed and the same request order give the same faults, and setting a new spec restarts
 * the streams. Example: `latency=20,jitter=30,error5xx=0.1,rate429=0.05,retryAfter=date`.
 */
import { Random } from './random';

export interface FaultSpec {
  latency?: number;
  jitter?: number;
  error5xx?: number;
  rate429?: number;
  retryAfter?: number | 'date';
  rps?: number;
  truncate?: number;
  html?: number;
  dropAfterApply?: number;
  aborted?: number;
  emptyPages?: number;
  repeatRow?: number;
  cycleTokens?: number;
  tokenExpireEarly?: number;
}

type ProbabilityKind =
  'error5xx' | 'rate429' | 'truncate' | 'html' | 'dropAfterApply' | 'aborted' | 'emptyPages' | 'repeatRow' | 'tokenExpireEarly';
const PROBABILITIES: readonly ProbabilityKind[] = [
  'error5xx',
  'rate429',
  'truncate',
  'html',
  'dropAfterApply',
  'aborted',
  'emptyPages',
  'repeatRow',
  'tokenExpireEarly',
];
const MILLISECONDS = ['latency', 'jitter'] as const;
const KNOWN = [...PROBABILITIES, ...MILLISECONDS, 'retryAfter', 'rps', 'cycleTokens'];

/** Parses and checks a fault spec string (or object); throws an Error naming the bad part. */
export function parseFaultSpec(input: string | FaultSpec): FaultSpec {
  const entries: [string, string | number][] =
    typeof input === 'string'
      ? input
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part.length > 0)
          .map((part) => {
            const eq = part.indexOf('=');
            if (eq <= 0) throw new Error(`fault '${part}' is not name=value`);
            return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
          })
      : Object.entries(input).filter(([, value]) => value !== undefined);
  const spec: FaultSpec = {};
  for (const [name, raw] of entries) {
    if (!KNOWN.includes(name)) throw new Error(`unknown fault '${name}' (known: ${KNOWN.join(', ')})`);
    if (name === 'retryAfter') {
      if (raw === 'date') spec.retryAfter = 'date';
      else {
        const seconds = Number(raw);
        if (!Number.isInteger(seconds) || seconds < 0) throw new Error(`retryAfter must be whole seconds or 'date', not '${raw}'`);
        spec.retryAfter = seconds;
      }
      continue;
    }
    const value = Number(raw);
    if (raw === '' || !Number.isFinite(value)) throw new Error(`fault ${name} needs a number, not '${raw}'`);
    if ((PROBABILITIES as readonly string[]).includes(name)) {
      if (value < 0 || value > 1) throw new Error(`fault ${name} is a probability in [0, 1], not ${raw}`);
    } else if (name === 'cycleTokens') {
      if (!Number.isInteger(value) || value < 1) throw new Error(`fault cycleTokens is a cycle length of 1 or more, not ${raw}`);
    } else if (value < 0 || (name === 'rps' && value === 0)) {
      throw new Error(`fault ${name} must be positive, not ${raw}`);
    }
    (spec as Record<string, number>)[name] = value;
  }
  return spec;
}

/** The answer a request gets from the fault injector before it is handled (none: handle it). */
export type PreFault =
  { kind: 'error5xx'; status: 500 | 503 } | { kind: 'rate429'; retryAfter: string; seconds: number } | { kind: 'html' };

export class Faults {
  private spec: FaultSpec = {};
  private streams = new Map<string, Random>();
  private bucket = { tokens: 0, at: 0 };

  constructor(private readonly seed: number) {}

  set(input: string | FaultSpec): void {
    this.spec = parseFaultSpec(input);
    this.streams.clear();
    this.bucket = { tokens: this.spec.rps ?? 0, at: Date.now() };
  }

  clear(): void {
    this.set({});
  }

  current(): FaultSpec {
    return { ...this.spec };
  }

  private stream(kind: string): Random {
    let random = this.streams.get(kind);
    if (!random) {
      random = new Random(this.seed, `fault:${kind}`);
      this.streams.set(kind, random);
    }
    return random;
  }

  /** Draws for one fault kind; no draw is taken when the fault is off, so others stay aligned. */
  roll(kind: ProbabilityKind): boolean {
    const p = this.spec[kind] ?? 0;
    if (p <= 0) return false;
    return this.stream(kind).float() < p;
  }

  /** The length of the cycle page tokens go round in (see cycleTokens), or undefined. */
  tokenCycle(): number | undefined {
    return this.spec.cycleTokens;
  }

  /** Milliseconds to wait before answering. */
  delay(): number {
    const fixed = this.spec.latency ?? 0;
    const jitter = this.spec.jitter ?? 0;
    return fixed + (jitter > 0 ? this.stream('jitter').float() * jitter : 0);
  }

  private retryAfter(seconds: number): string {
    if (this.spec.retryAfter === 'date') {
      // HTTP-date has whole seconds: round up so the date is never earlier than `seconds` ahead.
      return new Date((Math.floor(Date.now() / 1000) + seconds + 1) * 1000).toUTCString();
    }
    return String(seconds);
  }

  /** Decides, in a fixed order, whether an /api/v1 request is answered by a fault instead. */
  before(now = Date.now()): PreFault | null {
    const rps = this.spec.rps;
    if (rps !== undefined) {
      const elapsed = Math.max(0, now - this.bucket.at) / 1000;
      this.bucket = { tokens: Math.min(rps, this.bucket.tokens + elapsed * rps), at: now };
      if (this.bucket.tokens < 1) {
        const seconds = Math.max(1, Math.ceil((1 - this.bucket.tokens) / rps));
        return { kind: 'rate429', retryAfter: this.retryAfter(seconds), seconds };
      }
      this.bucket.tokens -= 1;
    }
    if (this.roll('rate429')) {
      const seconds = typeof this.spec.retryAfter === 'number' ? this.spec.retryAfter : 1;
      return { kind: 'rate429', retryAfter: this.retryAfter(seconds), seconds };
    }
    if (this.roll('error5xx')) return { kind: 'error5xx', status: this.stream('error5xx:status').float() < 0.5 ? 500 : 503 };
    if (this.roll('html')) return { kind: 'html' };
    return null;
  }
}
