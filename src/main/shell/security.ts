import { extname, join, normalize, resolve, sep } from 'node:path';

/**
 * The desktop shell's security policy as plain data and pure functions, so unit tests can check
 * it without Electron: the window's webPreferences, the CSP, the custom protocol, and the rules
 * for navigation and external links. window.ts and protocol.ts apply exactly these.
 */

/** The renderer is served from this custom scheme in production (never file://). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'attest';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Privileges of the app scheme: a standard, secure origin; no CORS bypass, no service workers. */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: false,
  bypassCSP: false,
  allowServiceWorkers: false,
  stream: false,
} as const;

/** The Content Security Policy of the renderer (the meta tag in index.html and the protocol's header). */
export const CSP_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'font-src': "'self'",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'frame-src': "'none'",
  'frame-ancestors': "'none'",
  'form-action': "'none'",
};
export const CSP = Object.entries(CSP_DIRECTIVES)
  .map(([directive, value]) => `${directive} ${value}`)
  .join('; ');
/** The same policy for index.html's meta tag, which cannot carry frame-ancestors (headers do). */
export const CSP_META = Object.entries(CSP_DIRECTIVES)
  .filter(([directive]) => directive !== 'frame-ancestors')
  .map(([directive, value]) => `${directive} ${value}`)
  .join('; ');

/** webPreferences of the main window. Every switch that matters is spelled out, not left to defaults. */
export function mainWindowWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
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
    spellcheck: false,
    safeDialogs: true,
    devTools: true,
  } as const;
}

/** Options of the main BrowserWindow apart from webPreferences. */
export function mainWindowOptions(preloadPath: string) {
  return {
    width: 1320,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Attest',
    autoHideMenuBar: false,
    webPreferences: mainWindowWebPreferences(preloadPath),
  };
}

/** Whether a navigation stays inside the app (same origin as the renderer); anything else is denied. */
export function isInAppNavigation(target: string, appOrigins: readonly string[]): boolean {
  try {
    const url = new URL(target);
    const origin = url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin;
    return appOrigins.includes(origin);
  } catch {
    return false;
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a request path of the renderer to a file under `root`, or null when it would leave the root
 * (`..`, encoded separators, NUL). `/` is index.html.
 */
export function resolveRendererFile(root: string, requestPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  if (relative.split('/').some((part) => part === '..')) return null;
  const base = resolve(root);
  const file = normalize(join(base, relative));
  return file.startsWith(base + sep) ? file : null;
}

/** Headers of every response of the app protocol. */
export function rendererResponseHeaders(file: string): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': contentTypeOf(file),
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
  if (file.endsWith('.html')) headers['Content-Security-Policy'] = CSP;
  return headers;
}
