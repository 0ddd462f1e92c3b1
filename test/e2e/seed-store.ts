import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/main/store/db';
import { storeRun } from '../helpers/report-fixtures';

const fixtures = new URL('../fixtures/', import.meta.url).pathname;
const load = (name: string): unknown => JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8'));

/** A store holding one completed run of the spec's fixture objects (one or two per collection). */
export function seedFixtureStore(file: string, extraScopes = 0): void {
  const store = openStore(file);
  try {
    const scope = load('scope') as Record<string, unknown>;
    const scopes = [scope, load('scope-unknown')];
    for (let i = 0; i < extraScopes; i += 1)
      scopes.push({ ...scope, id: `xs_extra_${i}`, scopeValue: `extra:scope-${i}`, displayName: `Extra scope ${i}` });
    storeRun(store, {
      scopes,
      automations: [load('automation'), load('automation-unknown')],
      // A campaign is kept as its AccessReviewView: the `accessReview` member of the GET wrapper.
      campaigns: [(load('access-review-wrapper') as { accessReview: unknown }).accessReview],
      templates: [load('access-review-template')],
      'routing-rules': [load('finding-routing-rule')],
      toolsets: [load('mcp-access-profile')],
    });
  } finally {
    store.close();
  }
}
