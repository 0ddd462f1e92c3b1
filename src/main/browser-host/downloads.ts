import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { Dialogs } from '../app/session';

/**
 * Saves as browser downloads, for the browser host without a dialog folder: a browser has no native
 * save dialog, so a save answers a path in the host's own temporary folder, and once a call has
 * written that file, the page is told to fetch it (GET /download/<id>) and the browser saves it
 * wherever it saves downloads. Opening a file still cancels (a page cannot hand the host a path).
 */
export interface DownloadShelf {
  dialogs: Dialogs;
  /** The files written since the last look, each now offered under an id (and no longer pending). */
  takeWritten(): string[];
  /** The file offered under `id`, or null. */
  file(id: string): { path: string; name: string } | null;
  /** Removes the folder and everything in it. */
  close(): void;
}

export function downloadShelf(): DownloadShelf {
  const root = mkdtempSync(join(tmpdir(), 'attest-downloads-'));
  const pending = new Set<string>();
  const offered = new Map<string, string>();
  return {
    dialogs: {
      async save(options) {
        const name = basename(options.defaultName ?? 'export.xlsx') || 'export.xlsx';
        // One folder per save: two exports of the same name never meet.
        const dir = join(root, randomBytes(8).toString('hex'));
        mkdirSync(dir);
        const path = join(dir, name);
        pending.add(path);
        return path;
      },
      async open() {
        return null;
      },
    },
    takeWritten() {
      const ids: string[] = [];
      for (const path of pending) {
        let written = false;
        try {
          written = statSync(path).isFile();
        } catch {
          written = false;
        }
        if (!written) continue;
        pending.delete(path);
        const id = randomBytes(16).toString('base64url');
        offered.set(id, path);
        ids.push(id);
      }
      return ids;
    },
    file(id) {
      const path = offered.get(id);
      return path ? { path, name: basename(path) } : null;
    },
    close() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const TYPES: Record<string, string> = {
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
};

/** The headers of a download: its type, and an attachment named as the file (ASCII fallback and UTF-8). */
export function downloadHeaders(name: string): Record<string, string> {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'Content-Type': TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  };
}
