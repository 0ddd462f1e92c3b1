/** Pure pieces of the HTTP layer: Retry-After, backoff, path checks, query building, the shared limiter. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, isJsonContentType, parseRetryAfter } from '../../src/main/api/http';
import { apiUrl, buildQuery, checkApiPath, pathParam } from '../../src/main/api/path';
import { RateLimiter } from '../../src/main/api/rate-limiter';
import { ApiError, kindForStatus, parseErrorBody } from '../../src/main/api/errors';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Thursday, 01-Jan-26 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Thu Jan  1 00:00:09 2026', now)).toBe(9000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    for (const value of [null, undefined, '', 'soon', '-1', '1.2.3', '2026-01-01', 'Thu, 01 Jan 2026 00:00:05'])
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt with jitter, capped', () => {
    expect(backoffDelay(1, 100, 10_000, () => 0)).toBe(50);
    expect(backoffDelay(1, 100, 10_000, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, 10_000, () => 1)).toBe(400);
    expect(backoffDelay(20, 100, 1000, () => 1)).toBe(1000);
  });
});

describe('content type', () => {
  it('accepts JSON media types and a missing header', () => {
    expect(isJsonContentType(new Headers({ 'content-type': 'application/json; charset=utf-8' }))).toBe(true);
    expect(isJsonContentType(new Headers({ 'content-type': 'application/problem+json' }))).toBe(true);
    expect(isJsonContentType(new Headers())).toBe(true);
    expect(isJsonContentType(new Headers({ 'content-type': 'text/html' }))).toBe(false);
  });
});

describe('paths', () => {
  it('accepts clean paths and encoded parameters', () => {
    expect(checkApiPath('/apps/a%2Fb/xaa/scopes')).toBe('/apps/a%2Fb/xaa/scopes');
    expect(checkApiPath('/findings/routing-rules')).toBe('/findings/routing-rules');
    expect(pathParam('a/b c', 'id')).toBe('a%2Fb%20c');
    expect(pathParam('%2e%2e', 'id')).toBe('%252e%252e');
    expect(pathParam(42, 'id')).toBe('42');
  });
  it('refuses empty, trailing and dot segments and unencoded characters', () => {
    for (const path of [
      '/',
      '/a/',
      '/a//b',
      '//a',
      '/./a',
      '/a/..',
      '/a/%2e',
      '/a/%2E%2E',
      '/a#b',
      '/a?b',
      'a',
      '/a b',
      '/a/ü',
      '/a\\b',
      '/a/%4',
    ]) {
      expect(() => checkApiPath(path), path).toThrow(ApiError);
    }
    for (const value of ['', '   ', '.', '..', undefined, null]) expect(() => pathParam(value, 'app_id')).toThrow(/app_id/);
  });
  it('builds queries from defined values and refuses non-finite numbers', () => {
    expect(buildQuery({ page_size: 10, page_token: undefined, q: 'a b&c', ids: ['x', 'y'] })).toBe('?page_size=10&q=a+b%26c&ids=x&ids=y');
    expect(buildQuery({})).toBe('');
    expect(() => buildQuery({ n: Number.NaN })).toThrow(ApiError);
  });
  it('joins the API root and the path without normalisation', () => {
    expect(apiUrl('http://127.0.0.1:8080/api/v1', '/tasks/t1', { a: 1 })).toBe('http://127.0.0.1:8080/api/v1/tasks/t1?a=1');
    expect(apiUrl('https://gw.example.com/t/api/v1', '/tasks/t1')).toBe('https://gw.example.com/t/api/v1/tasks/t1');
  });
});

describe('errors', () => {
  it('reads google.rpc.Status and OAuth bodies', () => {
    expect(parseErrorBody('{"code":5,"message":"no such campaign","details":[]}')).toEqual({
      grpcCode: 5,
      message: 'no such campaign',
      details: [],
    });
    expect(parseErrorBody('{"error":"invalid_client","error_description":"bad assertion"}')).toEqual({
      oauthError: 'invalid_client',
      message: 'bad assertion',
    });
    expect(parseErrorBody('<html>')).toEqual({});
    expect(parseErrorBody('{"message":"line\\nbreak\\u0000"}').message).toBe('line break');
  });
  it('maps statuses (and gRPC codes behind a bare 400) to kinds', () => {
    expect(kindForStatus(401)).toBe('auth');
    expect(kindForStatus(403)).toBe('auth');
    expect(kindForStatus(404)).toBe('not_found');
    expect(kindForStatus(409)).toBe('conflict');
    expect(kindForStatus(429)).toBe('rate_limited');
    expect(kindForStatus(503)).toBe('server');
    expect(kindForStatus(400)).toBe('invalid_input');
    expect(kindForStatus(422)).toBe('invalid_input');
    expect(kindForStatus(400, 5)).toBe('not_found');
    expect(kindForStatus(400, 6)).toBe('conflict');
  });
});

describe('RateLimiter', () => {
  it('holds every acquirer until a pause ends', async () => {
    const limiter = new RateLimiter();
    limiter.pause(150);
    const started = Date.now();
    const releases = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    releases.forEach((release) => release());
    expect(limiter.inFlight).toBe(0);
  });

  it('bounds concurrency and releases each slot once', async () => {
    const limiter = new RateLimiter({ maxConcurrent: 2 });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    let third = false;
    const c = limiter.acquire().then((release) => {
      third = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    a();
    a();
    const release = await c;
    expect(third).toBe(true);
    expect(limiter.inFlight).toBe(2);
    b();
    release();
    expect(limiter.inFlight).toBe(0);
  });

  it('spaces starts to the requests-per-second rate', async () => {
    const limiter = new RateLimiter({ requestsPerSecond: 20 });
    const started = Date.now();
    const releases = await Promise.all(Array.from({ length: 5 }, () => limiter.acquire()));
    releases.forEach((r) => r());
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('gives up waiting when the signal fires', async () => {
    const limiter = new RateLimiter();
    limiter.pause(10_000);
    const controller = new AbortController();
    const pending = limiter.acquire(controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
  });
});
