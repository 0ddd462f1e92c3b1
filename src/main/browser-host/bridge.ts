import { CHANNEL_NAMES, EVENT_NAMES, subscriberName } from '../../shared/contract';

/**
 * The browser bridge: the script the browser host serves before the renderer, implementing
 * `window.attest` with the same named functions as the Electron preload, over POST /rpc/<channel>
 * and server-sent events on /events. The per-run token arrives in the URL fragment (#token=…),
 * is kept in sessionStorage for reloads, and is removed from the address bar.
 */
export function bridgeScript(): string {
  const channels = JSON.stringify(CHANNEL_NAMES);
  const events = JSON.stringify(EVENT_NAMES.map((name) => [name, subscriberName(name)]));
  return `(() => {
  'use strict';
  const match = /[#&]token=([A-Za-z0-9_-]+)/.exec(location.hash);
  let token = match ? match[1] : sessionStorage.getItem('attest-host-token');
  if (match) {
    sessionStorage.setItem('attest-host-token', token);
    history.replaceState(null, '', location.pathname + location.search);
  }
  const unreachable = { ok: false, error: { code: 'offline', message: 'The app host cannot be reached.' } };
  const download = (id) => {
    const link = document.createElement('a');
    link.href = '/download/' + encodeURIComponent(id) + '?token=' + encodeURIComponent(token || '');
    link.download = '';
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
  };
  const call = (name) => async (args) => {
    try {
      const response = await fetch('/rpc/' + name, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-attest-token': token || '' },
        body: JSON.stringify(args === undefined ? null : args),
        credentials: 'omit',
        cache: 'no-store',
      });
      const downloads = response.headers.get('x-attest-download');
      const reply = await response.json();
      // A file the call wrote where a save answered (no native dialog here): the browser downloads it.
      if (downloads) for (const id of downloads.split(',')) download(id);
      return reply;
    } catch {
      return unreachable;
    }
  };
  const listeners = new Map();
  let source = null;
  const connect = () => {
    if (source) return;
    source = new EventSource('/events?token=' + encodeURIComponent(token || ''));
    for (const [event] of ${events}) {
      source.addEventListener(event, (message) => {
        let payload;
        try { payload = JSON.parse(message.data); } catch { return; }
        for (const callback of listeners.get(event) || []) callback(payload);
      });
    }
  };
  const api = {};
  for (const name of ${channels}) api[name] = call(name);
  for (const [event, subscriber] of ${events}) {
    api[subscriber] = (callback) => {
      connect();
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(callback);
      return () => void listeners.get(event).delete(callback);
    };
  }
  Object.defineProperty(window, 'attest', { value: Object.freeze(api), writable: false, configurable: false });
})();
`;
}
