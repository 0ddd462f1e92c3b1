import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { APP_HOST, APP_SCHEME, APP_SCHEME_PRIVILEGES, rendererResponseHeaders, resolveRendererFile } from './security';

/** Must run before `app.ready`: makes app:// a standard, secure origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
}

/** Serves the built renderer (out/renderer) on app://attest/, read-only, GET only, never outside its folder. */
export function serveRenderer(rendererRoot: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    const file = resolveRendererFile(rendererRoot, url.pathname);
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, { status: 200, headers: rendererResponseHeaders(file) });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
