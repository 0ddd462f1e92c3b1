import { describe, expect, it } from 'vitest';
import { CursorSet, READ_AHEAD, READ_AHEAD_OBJECTS, readAheadPages, readCheckpoint } from '../../src/main/sync/cursors';
import type { FetchedPage } from '../../src/main/sync/pages';

/** A cursor of `pages` pages (tokens `key:1`, `key:2`, ...; '' after the last), or one that fails at page `failAt`. */
function pagesOf(key: string, pages: number, reads: string[], failAt?: number): AsyncIterator<FetchedPage> {
  let n = 0;
  return {
    next: async () => {
      n += 1;
      reads.push(`${key}${n}`);
      await new Promise((r) => setTimeout(r, 1));
      if (n === failAt) throw new Error(`${key} page ${n} failed`);
      return { done: false, value: { objects: [], next: n < pages ? `${key}:${n}` : '' } };
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('the cursors of a walk', () => {
  it('read ahead of what was taken, up to READ_AHEAD pages, and on as pages are taken', async () => {
    const reads: string[] = [];
    const cursors = new CursorSet(readCheckpoint('', ['a']), (key) => pagesOf(key, 20, reads));
    await settle();
    expect(reads).toHaveLength(READ_AHEAD);
    await cursors.take();
    await settle();
    expect(reads).toHaveLength(READ_AHEAD + 1);
  });

  it('read as many small pages ahead as READ_AHEAD pages of the largest hold: a chain of small pages goes on while the store is busy', async () => {
    expect(readAheadPages(100)).toBe(READ_AHEAD);
    expect(readAheadPages(10)).toBe(READ_AHEAD_OBJECTS / 10);
    expect(readAheadPages(1000)).toBe(READ_AHEAD);
    const reads: string[] = [];
    const cursors = new CursorSet(readCheckpoint('', ['a']), (key) => pagesOf(key, 200, reads), readAheadPages(10));
    for (let waited = 0; reads.length < readAheadPages(10) && waited < 100; waited += 1) await settle();
    await settle();
    expect(reads).toHaveLength(readAheadPages(10));
    cursors.close();
  });

  it('checkpoint only the pages advanced past, not those read ahead', async () => {
    const cursors = new CursorSet(readCheckpoint('', ['a', 'b']), (key) => pagesOf(key, 3, []));
    await settle();
    expect(cursors.checkpoint()).toBe(JSON.stringify({ a: '', b: '' }));
    const first = await cursors.take();
    if (!('page' in first)) throw new Error('a page was expected');
    cursors.advance(first.key, first.page);
    expect(JSON.parse(cursors.checkpoint())).toEqual({ a: '', b: '', [first.key]: `${first.key}:1` });
  });

  it('give each cursor its pages in order, its error after them, with the token it asked with', async () => {
    const cursors = new CursorSet(readCheckpoint('', ['a', 'b']), (key) => pagesOf(key, 4, [], key === 'b' ? 3 : undefined));
    const seen: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const read = await cursors.take();
      if ('error' in read) seen.push(`${read.key} failed asking ${read.token}`);
      else {
        cursors.advance(read.key, read.page);
        seen.push(`${read.key} -> ${read.page.next || 'end'}`);
      }
    }
    expect(seen.filter((s) => s.startsWith('a'))).toEqual(['a -> a:1', 'a -> a:2', 'a -> a:3', 'a -> end']);
    expect(seen.filter((s) => s.startsWith('b'))).toEqual(['b -> b:1', 'b -> b:2', 'b failed asking b:2']);
  });

  it('give the pages that arrived meanwhile, in order, up to a number, and none past an error', async () => {
    const cursors = new CursorSet(readCheckpoint('', ['a']), (key) => pagesOf(key, 20, [], 5));
    await settle();
    expect(cursors.takeArrived(2).map((read) => read.page.next)).toEqual(['a:1', 'a:2']);
    expect(cursors.takeArrived(READ_AHEAD).map((read) => read.page.next)).toEqual(['a:3', 'a:4']);
    expect(cursors.takeArrived(READ_AHEAD)).toEqual([]);
    const failed = await cursors.take();
    expect('error' in failed && failed.token).toBe('a:4');
  });

  it('start no read once closed', async () => {
    const reads: string[] = [];
    const cursors = new CursorSet(readCheckpoint('', ['a']), (key) => pagesOf(key, 20, reads));
    await settle();
    cursors.close();
    for (let i = 0; i < READ_AHEAD; i += 1) await cursors.take();
    await settle();
    expect(reads).toHaveLength(READ_AHEAD);
  });
});
