/**
 * `npm run bench`: runs every test/bench/*.bench.ts in one process, one after another, and prints
 * each exported `bench*` function's figures (ratios measured side by side in the same run).
 * `npm run bench -- sync search` runs only the files whose names contain one of the words;
 * `npm run bench -- sync:benchSync` only the function of those files named after the colon.
 * Benchmarks are measurements, never pass/fail tests.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = new URL('.', import.meta.url).pathname;
const filters = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('-'))
  .map((a) => ({ file: a.split(':')[0]!, fn: a.split(':')[1] ?? '' }));
/** Whether a file (and, when named, one of its functions) is among those asked for. */
const chosen = (file: string, fn?: string): boolean =>
  filters.length === 0 || filters.some((w) => file.includes(w.file) && (fn === undefined || w.fn === '' || fn === w.fn));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => chosen(f))
  .sort();

function format(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  return String(value);
}

const all: Record<string, Record<string, unknown>> = {};
for (const file of files) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
  for (const [name, fn] of Object.entries(mod)) {
    if (!name.startsWith('bench') || typeof fn !== 'function' || !chosen(file, name)) continue;
    process.stderr.write(`\n--- ${file} :: ${name}\n`);
    const started = performance.now();
    const figures = (await (fn as () => Promise<Record<string, unknown>>)()) ?? {};
    all[`${file}:${name}`] = figures;
    const width = Math.max(...Object.keys(figures).map((k) => k.length), 8);
    for (const [key, value] of Object.entries(figures)) process.stdout.write(`${key.padEnd(width)}  ${format(value)}\n`);
    process.stdout.write(`(${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
}
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
if (Object.keys(all).length === 0) {
  process.stderr.write('bench: no benchmark matched\n');
  process.exitCode = 1;
}
