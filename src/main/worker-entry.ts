/** Worker threads: where a thread's entry is, and the errors threads pass back. */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * A worker thread's entry `name` beside the module at `moduleUrl`, and the Node options to start
 * it: from source (the CLI and the tests run TypeScript through tsx) the .ts file with tsx's
 * loader, resolved from here so the working folder does not matter; in a build, the compiled
 * `name`.js next to the module.
 */
export function workerEntry(moduleUrl: string, name: string): { url: URL; execArgv: string[] } {
  const fromSource = moduleUrl.endsWith('.ts');
  const url = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, moduleUrl);
  if (!fromSource) return { url, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { url, execArgv: ['--import', tsx] };
}

/** An error as a worker thread passes it back: what survives the copy between threads. */
export interface ThreadError {
  name: string;
  message: string;
  kind?: string;
  code?: string;
}

/** `error` as a worker thread passes it back: its name, message, and the kind or code its layer gave it. */
export function threadErrorOf(error: unknown): ThreadError {
  const e = error as { name?: unknown; message?: unknown; kind?: unknown; code?: unknown };
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(error),
    ...(typeof e?.kind === 'string' ? { kind: e.kind } : {}),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
  };
}

/** An error raised in a worker thread, rebuilt on this side with the name and kind/code its layer gave it. */
export class ErrorFromThread extends Error {
  readonly kind?: string;
  readonly code?: string;
  constructor(error: ThreadError) {
    super(error.message);
    this.name = error.name;
    if (error.kind !== undefined) this.kind = error.kind;
    if (error.code !== undefined) this.code = error.code;
  }
}
