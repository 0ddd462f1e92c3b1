/**
 * The one list of read-only request members (src/shared/read-only-members.ts) held to the vendor's
 * OpenAPI document: each member the document flags `readOnly: true` in a request the app sends is
 * listed as 'openapi', and each the spec calls "response only" ('spec') is a member of that request.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/main/outbox/kinds';
import {
  readOnlyMembersIn,
  readOnlyMembersOf,
  REQUEST_READ_ONLY,
  TEMPLATE_READ_ONLY,
  withoutMembers,
} from '../../src/shared/read-only-members';
import { documentMembers } from '../helpers/openapi-members';

/** The spec's name for the document's `slackChannel`. */
const specName = (path: string) => path.replace(/(^|\.)slackChannel(\.|$)/, '$1chatChannel$2');

describe('the read-only members of request bodies', () => {
  it('names exactly the requests the outbox sends, one per kind', () => {
    expect(
      Object.values(KINDS)
        .map((d) => d.endpoint)
        .sort(),
    ).toEqual(Object.keys(REQUEST_READ_ONLY).sort());
  });

  for (const [endpoint, listed] of Object.entries(REQUEST_READ_ONLY)) {
    it(`${endpoint}: every member the document flags read-only, and the spec's, and nothing else`, () => {
      const members = documentMembers(endpoint);
      const flagged = members.filter((m) => m.readOnly).map((m) => specName(m.path));
      const fromDocument = Object.entries(listed)
        .filter(([, source]) => source === 'openapi')
        .map(([path]) => path);
      expect(fromDocument.sort()).toEqual(flagged.sort());
      const known = new Set(members.map((m) => specName(m.path)));
      for (const [path, source] of Object.entries(listed)) {
        expect(known.has(path), `${path} is a member of ${endpoint}`).toBe(true);
        if (source === 'spec') expect(flagged, `${path} (spec) is not flagged by the document`).not.toContain(path);
      }
    });
  }

  it('the template lists its timestamps from the document and the spec response-only members', () => {
    // The document flags only the timestamps; the spec adds the rest ("response only").
    expect(Object.entries(TEMPLATE_READ_ONLY).filter(([, s]) => s === 'openapi')).toEqual([
      ['createdAt', 'openapi'],
      ['updatedAt', 'openapi'],
      ['deletedAt', 'openapi'],
    ]);
    expect(TEMPLATE_READ_ONLY['recurrenceRule.frequency']).toBe('spec');
    expect(REQUEST_READ_ONLY['POST /api/v1/access_review']!['scopeV2.grantsByCriteria.typeFilter']).toBe('spec');
  });

  it('finds read-only members at any depth, in lists too, and leaves the rest as it is', () => {
    const body = {
      accessReviewTemplate: {
        description: 'd',
        recurrenceRule: { endDate: null, frequency: 'FREQUENCY_MONTHLY' },
        scope: { principalTypeFilter: 'PRINCIPAL_TYPE_FILTER_USERS', grantsByCriteria: { typeFilter: 'GRANT_FILTER_TYPE_PERMANENT' } },
      },
    };
    const found = readOnlyMembersIn('POST /api/v1/access_review_template/{id}', body);
    expect(found.sort()).toEqual([
      'accessReviewTemplate.recurrenceRule.frequency',
      'accessReviewTemplate.scope.grantsByCriteria.typeFilter',
      'accessReviewTemplate.scope.principalTypeFilter',
    ]);
    expect(withoutMembers(body, found)).toEqual({
      accessReviewTemplate: { description: 'd', recurrenceRule: { endDate: null }, scope: { grantsByCriteria: {} } },
    });
    expect(body.accessReviewTemplate.recurrenceRule.frequency).toBe('FREQUENCY_MONTHLY');
    expect(readOnlyMembersOf({ 'a.b': 'spec' }, { a: [{ c: 1 }, { b: 2 }] })).toEqual(['a.b']);
    expect(withoutMembers({ a: [{ b: 1, c: 1 }, { c: 2 }] }, ['a.b'])).toEqual({ a: [{ c: 1 }, { c: 2 }] });
    expect(readOnlyMembersIn('GET /api/v1/unknown', { createdAt: 'x' })).toEqual([]);
  });
});
