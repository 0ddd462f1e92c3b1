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
