import { describe, expect, it } from 'vitest';
import list from '../../src/cli/commands/list';
import search from '../../src/cli/commands/search';
import show from '../../src/cli/commands/show';
import { COLLECTION_IDS } from '../../src/main/collections';

describe('the usage of the commands that take a collection', () => {
  it.each([
    ['list', list],
    ['show', show],
    ['search', search],
  ])('%s names every collection, in lines of at most 120 characters below the synopsis', (_, command) => {
    const words = command.usage.replace(/[\s,.]+/g, ' ');
    for (const id of COLLECTION_IDS) expect(words).toContain(` ${id} `);
    const [, ...rest] = command.usage.split('\n');
    for (const line of rest) expect(line.length).toBeLessThanOrEqual(120);
  });
});
