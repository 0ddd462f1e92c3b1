import { describe, expect, it } from 'vitest';
import {
  API_NAMES,
  CHANNELS,
  CHANNEL_NAMES,
  EVENTS,
  EVENT_NAMES,
  contractMismatches,
  ipcChannel,
  ipcEvent,
  subscriberName,
  type ChannelName,
} from '../../src/shared/contract';
import { CoreError as RpcError, redact } from '../../src/main/errors';
import { createEventBus } from '../../src/main/events';
import { createDispatcher, isTrustedSender, type Handlers } from '../../src/main/rpc/dispatch';
import { toReplyError } from '../../src/main/rpc/errors';
import { APP_ORIGIN } from '../../src/main/shell/security';

const ours = { url: `${APP_ORIGIN}/index.html`, isMainFrame: true };

/** Handlers that fail loudly if called: the tests below must be stopped before the handler. */
function trapHandlers(overrides: Partial<Handlers> = {}): Handlers {
  const trap = () => {
    throw new Error('handler must not run');
  };
  return Object.fromEntries(CHANNEL_NAMES.map((name) => [name, overrides[name] ?? trap])) as unknown as Handlers;
}

describe('the contract', () => {
  it('has a schema for every channel and event name, and nothing else', () => {
    expect(contractMismatches()).toEqual([]);
    expect(Object.keys(CHANNELS).sort()).toEqual([...CHANNEL_NAMES].sort());
    expect(Object.keys(EVENTS).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('names every window.attest function: channels then on<Event> subscriptions, no generic invoke', () => {
    expect(API_NAMES).toEqual([
      ...CHANNEL_NAMES,
      'onSyncProgress',
      'onConnectionState',
      'onSendProgress',
      'onExportProgress',
      'onMenuCommand',
      'onAutoRun',
      'onNotice',
      'onStoreChanged',
    ]);
    expect(API_NAMES).not.toContain('invoke');
    expect(API_NAMES).not.toContain('send');
    expect(subscriberName('syncProgress')).toBe('onSyncProgress');
  });

  it('uses one prefix for every IPC channel', () => {
    for (const name of CHANNEL_NAMES) expect(ipcChannel(name)).toBe(`attest:rpc:${name}`);
    for (const name of EVENT_NAMES) expect(ipcEvent(name)).toBe(`attest:event:${name}`);
  });

  it('gives every channel a summary and object-shaped arguments that accept being left out where all are optional', () => {
    for (const name of CHANNEL_NAMES) {
      const definition = CHANNELS[name];
      expect(definition.summary.length, name).toBeGreaterThan(10);
    }
    expect(CHANNELS.appInfo.args.safeParse(undefined).success).toBe(true);
    expect(CHANNELS.startSync.args.parse(undefined)).toEqual({ only: null });
    expect(CHANNELS.listObjects.args.parse({ collection: 'scopes' })).toMatchObject({ offset: 0, limit: 200, filters: {}, sort: null });
  });

  it('refuses unknown fields and wrong types in arguments', () => {
    expect(CHANNELS.getObject.args.safeParse({ collection: 'scopes', id: 'x', extra: 1 }).success).toBe(false);
    expect(CHANNELS.getObject.args.safeParse({ collection: 'people', id: 'x' }).success).toBe(false);
    expect(CHANNELS.listObjects.args.safeParse({ collection: 'scopes', limit: 1_000_000 }).success).toBe(false);
  });
});

describe('the checked dispatcher', () => {
  it('accepts our origin from a main frame only', () => {
    const allowed = [APP_ORIGIN, 'http://127.0.0.1:5173'];
    expect(isTrustedSender(ours, allowed)).toBe(true);
    expect(isTrustedSender({ url: 'http://127.0.0.1:5173/x', isMainFrame: true }, allowed)).toBe(true);
    expect(isTrustedSender({ url: `${APP_ORIGIN}/index.html`, isMainFrame: false }, allowed)).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/', isMainFrame: true }, allowed)).toBe(false);
    expect(isTrustedSender({ url: 'app://attest.evil/index.html', isMainFrame: true }, allowed)).toBe(false);
    expect(isTrustedSender({ url: 'file:///etc/passwd', isMainFrame: true }, allowed)).toBe(false);
    expect(isTrustedSender({ url: 'not a url', isMainFrame: true }, allowed)).toBe(false);
    expect(isTrustedSender(null, allowed)).toBe(false);
  });

  it('rejects a foreign sender before the handler runs', async () => {
    const dispatcher = createDispatcher({ handlers: trapHandlers(), allowedOrigins: () => [APP_ORIGIN], host: 'electron' });
    const reply = await dispatcher.dispatch('listConnections', {}, { url: 'https://evil.example/', isMainFrame: true });
    expect(reply).toEqual({ ok: false, error: { code: 'forbidden', message: expect.any(String) } });
    const subframe = await dispatcher.dispatch('listConnections', {}, { url: `${APP_ORIGIN}/`, isMainFrame: false });
    expect(subframe.ok).toBe(false);
  });

  it('rejects a payload that fails its schema before the handler runs', async () => {
    const dispatcher = createDispatcher({ handlers: trapHandlers(), allowedOrigins: () => [APP_ORIGIN], host: 'electron' });
    const reply = await dispatcher.dispatch('getObject', { collection: 'scopes', id: 42 }, ours);
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.code).toBe('bad_request');
      expect(reply.error.message).toMatch(/getObject.*id/);
    }
    const unknown = await dispatcher.dispatch('invoke', {}, ours);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    const proto = await dispatcher.dispatch('__proto__', {}, ours);
    expect(proto).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
  });

  it('passes parsed arguments with defaults, and drops result fields the contract does not name', async () => {
    let seen: unknown;
    const handlers = trapHandlers({
      listRuns: () => ({ runs: [], secret: 'secret-token:x' }) as never,
      listObjects: (args) => {
        seen = args;
        return { rows: [], total: 0 };
      },
    });
    const dispatcher = createDispatcher({ handlers, allowedOrigins: () => [APP_ORIGIN], host: 'electron' });
    expect(await dispatcher.dispatch('listRuns', undefined, ours)).toEqual({ ok: true, value: { runs: [] } });
    await dispatcher.dispatch('listObjects', { collection: 'automations' }, ours);
    expect(seen).toEqual({ collection: 'automations', filters: {}, text: '', sort: null, offset: 0, limit: 200, asOfRun: null });
  });

  it('turns thrown errors into typed replies without stack traces or secrets', async () => {
    const secret = 'secret-token:tenant.example:v1:eyJrdHkiOiJPS1AiLCJjcnYiOiJFZDI1NTE5IiwiZCI6ImFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6In0';
    const handlers = trapHandlers({
      listRuns: () => {
        throw new Error(`token request failed for ${secret}\n    at Object.<anonymous> (/src/x.ts:1:1)`);
      },
      appInfo: () => {
        throw new RpcError('not_found', 'No such connection.');
      },
      collections: () => ({ wrong: true }) as never,
    });
    const dispatcher = createDispatcher({ handlers, allowedOrigins: () => [APP_ORIGIN], host: 'electron' });
    const reply = await dispatcher.dispatch('listRuns', {}, ours);
    expect(reply.ok).toBe(false);
    const text = JSON.stringify(reply);
    expect(text).not.toContain('eyJrdHki');
    expect(text).not.toContain(' at ');
    expect(await dispatcher.dispatch('appInfo', {}, ours)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No such connection.' },
    });
    expect(await dispatcher.dispatch('collections', {}, ours)).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('maps core error names and network codes to reply codes', () => {
    class CredentialError extends Error {
      override name = 'CredentialError';
    }
    expect(toReplyError(new CredentialError('client id has no @')).code).toBe('invalid_credentials');
    expect(toReplyError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).code).toBe('offline');
    expect(toReplyError('a string').code).toBe('internal');
    expect(redact('Authorization: Bearer abc.def.ghi')).toBe('Authorization: Bearer [redacted]');
    expect(redact('{"kty":"OKP","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}')).not.toContain('nWGxne');
  });

  it('validates events before fanning them out', () => {
    const bus = createEventBus();
    const seen: unknown[] = [];
    const stop = bus.subscribe((event, payload) => seen.push([event, payload]));
    bus.emit('connectionState', { connection: 'demo', online: true, status: 'online', checkedAt: null, reason: null, needsSecret: false });
    bus.emit('connectionState', { connection: 'demo' } as never);
    stop();
    bus.emit('connectionState', {
      connection: 'demo',
      online: false,
      status: 'offline',
      checkedAt: null,
      reason: null,
      needsSecret: false,
    });
    expect(seen).toHaveLength(1);
  });
});

// Keeps the exhaustive channel list honest at the type level too.
const _names: ChannelName[] = [...CHANNEL_NAMES];
void _names;
