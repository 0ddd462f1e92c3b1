import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { API_NAMES, CHANNEL_NAMES, EVENT_NAMES, ipcChannel, ipcEvent } from '../../src/shared/contract';
import {
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  CSP,
  CSP_DIRECTIVES,
  CSP_META,
  isInAppNavigation,
  mainWindowOptions,
  mainWindowWebPreferences,
  rendererResponseHeaders,
  resolveRendererFile,
} from '../../src/main/shell/security';
import { isSafeExternalUrl } from '../../src/shared/external-url';

// What the preload hands to contextBridge, captured by a mock of electron.
const exposed = vi.hoisted(() => ({ key: '', api: {} as Record<string, unknown>, invoked: [] as unknown[][], on: [] as unknown[][] }));
vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: Record<string, unknown>) => {
      exposed.key = key;
      exposed.api = api;
    },
  },
  ipcRenderer: {
    invoke: (...args: unknown[]) => {
      exposed.invoked.push(args);
      return Promise.resolve({ ok: true, value: {} });
    },
    on: (...args: unknown[]) => exposed.on.push(args),
    removeListener: () => {},
  },
}));

describe('the main window', () => {
  it('is isolated, sandboxed, without Node, with web security', () => {
    const prefs = mainWindowWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(mainWindowOptions('/p').webPreferences).toEqual(prefs.preload === '/p' ? prefs : mainWindowWebPreferences('/p'));
  });

  it('serves the renderer from a secure custom scheme, not file://', () => {
    expect(APP_ORIGIN).toBe('app://attest');
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ standard: true, secure: true, bypassCSP: false, corsEnabled: false });
    const main = readFileSync('src/main/index.ts', 'utf8');
    expect(main).not.toMatch(/loadFile|file:\/\//);
    expect(main).toMatch(/requestSingleInstanceLock/);
  });

  it('has a strict CSP: no inline or remote script, no eval, no framing, no plugins', () => {
    expect(CSP_DIRECTIVES['script-src']).toBe("'self'");
    expect(CSP).not.toMatch(/unsafe-eval|\*|https?:/);
    expect(CSP).toContain("object-src 'none'");
    expect(CSP).toContain("frame-ancestors 'none'");
    expect(CSP).toContain("base-uri 'none'");
    expect(CSP).toContain("default-src 'self'");
    expect(rendererResponseHeaders('/x/index.html')['Content-Security-Policy']).toBe(CSP);
    // The renderer's meta tag says the same thing (minus frame-ancestors, which only a header may carry).
    const html = readFileSync('src/renderer/index.html', 'utf8');
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CSP_META);
    expect(CSP_META).toBe(CSP.replace("; frame-ancestors 'none'", ''));
  });

  it('opens only plain https links outside the app and keeps navigation inside it', () => {
    expect(isSafeExternalUrl('https://example.com/docs')).toBe(true);
    for (const bad of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://user:pw@example.com',
      'smb://x',
      'not a url',
    ]) {
      expect(isSafeExternalUrl(bad), bad).toBe(false);
    }
    expect(isInAppNavigation('app://attest/index.html', [APP_ORIGIN])).toBe(true);
    expect(isInAppNavigation('https://example.com/', [APP_ORIGIN])).toBe(false);
  });

  it('never serves a file outside the renderer folder', () => {
    expect(resolveRendererFile('/srv/r', '/')).toBe('/srv/r/index.html');
    expect(resolveRendererFile('/srv/r', '/assets/a.js')).toBe('/srv/r/assets/a.js');
    for (const bad of ['/../secret', '/%2e%2e/secret', '/a/../../b', '/%00', '/..%5csecret', '/%E0%A4%A']) {
      expect(resolveRendererFile('/srv/r', bad), bad).toBeNull();
    }
  });
});

describe('the preload', () => {
  it('exposes exactly one named function per channel and one subscription per event, nothing else', async () => {
    await import('../../src/preload/index');
    expect(exposed.key).toBe('attest');
    expect(Object.keys(exposed.api)).toEqual([...API_NAMES]);
    expect(Object.isFrozen(exposed.api)).toBe(true);
    for (const value of Object.values(exposed.api)) expect(typeof value).toBe('function');
    for (const forbidden of ['invoke', 'send', 'on', 'ipcRenderer', 'process', 'env', 'require'])
      expect(exposed.api).not.toHaveProperty(forbidden);
  });

  it('sends each function on its own prefixed channel and subscribes to events by name', async () => {
    await import('../../src/preload/index');
    const call = exposed.api.getObject as (args: unknown) => Promise<unknown>;
    await call({ collection: 'scopes', id: 's1' });
    expect(exposed.invoked.at(-1)).toEqual([ipcChannel('getObject'), { collection: 'scopes', id: 's1' }]);
    const subscribe = exposed.api.onSyncProgress as (cb: () => void) => () => void;
    const stop = subscribe(() => {});
    expect(exposed.on.at(-1)?.[0]).toBe(ipcEvent('syncProgress'));
    expect(typeof stop).toBe('function');
    expect(CHANNEL_NAMES.length + EVENT_NAMES.length).toBe(API_NAMES.length);
  });

  it('holds no logic beyond the bridge: no process.env, no generic invoke', () => {
    const source = readFileSync('src/preload/index.ts', 'utf8');
    expect(source).not.toMatch(/process\.env/);
    expect(source).not.toMatch(/invoke\s*:/);
    expect(source).not.toMatch(/from '\.\.\/shared\/contract'/); // only the zod-free name list
  });
});

describe('the packaged build', () => {
  it('sets the Electron fuses and packages no test or host code', () => {
    const config = readFileSync('electron-builder.yml', 'utf8');
    const fuses = config.slice(config.indexOf('electronFuses:'));
    for (const [fuse, value] of Object.entries({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    })) {
      expect(fuses, fuse).toMatch(new RegExp(`\\n\\s+${fuse}: ${value}\\n`));
    }
    expect(config).toMatch(/asar: true/);
    expect(config).toMatch(/"!test\/\*\*"/);
  });
});
