/**
 * One limit on what a search may hold (characters and words), enforced by the core, so the CLI and
 * the app refuse the same searches with the same reason: exit 2 in the CLI, bad_request in the app.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import { openStore } from '../../src/main/store/db';
import { queryProblem, QUERY_MAX_CHARS, QUERY_MAX_WORDS } from '../../src/shared/search-limits';
import { seedFixtureStore } from '../e2e/seed-store';
import { runCli, tempDir } from './sync.helpers';

let tmp: ReturnType<typeof tempDir>;
let storeFile: string;
let host: BrowserHost;

beforeAll(async () => {
  tmp = tempDir('attest-search-limits-');
  storeFile = join(tmp.dir, 'store.sqlite');
  seedFixtureStore(storeFile, 40);
  const renderer = join(tmp.dir, 'renderer');
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Attest</title>');
  host = await startBrowserHost({ rendererRoot: renderer, dataDir: join(tmp.dir, 'data'), storeFile });
});
afterAll(async () => {
  await host?.close();
  tmp?.remove();
});

/** `count` different words, each a prefix of something the fixture store holds or not. */
const words = (count: number) => Array.from({ length: count }, (_, i) => `w${i.toString(36)}`).join(' ');

async function hostSearch(query: string): Promise<{ ok: boolean; error?: { code: string; message: string } }> {
  const response = await fetch(`${host.origin}/rpc/search`, {
    method: 'POST',
    headers: { origin: host.origin, 'content-type': 'application/json', 'x-attest-token': host.token },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { ok: boolean; error?: { code: string; message: string } };
}

describe('search limits', () => {
  const cases: [string, string, string][] = [
    ['8,000 words', words(8_000), `characters long; at most ${QUERY_MAX_CHARS} are searched`],
    [
      `${QUERY_MAX_WORDS + 1} words`,
      words(QUERY_MAX_WORDS + 1),
      `The search has ${QUERY_MAX_WORDS + 1} words; at most ${QUERY_MAX_WORDS} are searched`,
    ],
    [
      `${QUERY_MAX_CHARS + 1} characters`,
      'a'.repeat(QUERY_MAX_CHARS + 1),
      `The search is 501 characters long; at most ${QUERY_MAX_CHARS} are searched`,
    ],
  ];

  it.each(cases)('the CLI refuses %s with exit 2 and the reason', async (_, query, reason) => {
    const { code, out, err } = await runCli(['search', query, '--store', storeFile]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^attest search: The search /);
    expect(err).toContain(reason);
    expect(err).toContain('shorten it');
  });

  it.each(cases)('the app refuses %s as bad_request with the same reason', async (_, query, reason) => {
    const reply = await hostSearch(query);
    expect(reply.ok).toBe(false);
    expect(reply.error?.code).toBe('bad_request');
    expect(reply.error?.message).toContain(reason);
  });

  it('the core refuses them itself, counting characters (not UTF-16 units) and words of letters or digits', () => {
    const store = openStore(storeFile);
    try {
      expect(() => store.search(words(8_000))).toThrow(/^The search is 38,667 characters long; at most 500 are searched: shorten it\.$/);
      expect(() => store.search(words(QUERY_MAX_WORDS + 1))).toThrow(expect.objectContaining({ name: 'StoreQueryError' }));
    } finally {
      store.close();
    }
    // 250 emoji are 500 UTF-16 units but 250 characters, and no word.
    expect(queryProblem('\u{1F600}'.repeat(QUERY_MAX_CHARS / 2 + 10))).toBeNull();
    // Punctuation separates words: a-b-c is three.
    expect(queryProblem(Array.from({ length: QUERY_MAX_WORDS + 1 }, (_, i) => `x${i}`).join('-'))).toMatch(/has 33 words/);
  });

  it(`a search of ${QUERY_MAX_WORDS} words and ${QUERY_MAX_CHARS} characters still runs, in the CLI and in the app`, async () => {
    const longest = `${words(QUERY_MAX_WORDS)} ${'"'.repeat(QUERY_MAX_CHARS)}`.slice(0, QUERY_MAX_CHARS);
    expect(queryProblem(longest)).toBeNull();
    const cli = await runCli(['search', longest, '--store', storeFile, '--json']);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.out)).toMatchObject({ total: 0 });
    expect((await hostSearch(longest)).ok).toBe(true);
    const found = await runCli(['search', 'extra', '--store', storeFile, '--json']);
    expect(JSON.parse(found.out).total).toBeGreaterThan(0);
  });
});
