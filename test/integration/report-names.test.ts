/**
 * Names instead of bare ids: a real sync of the demo tenant, then its evidence workbook read back
 * by exceljs. No data-sheet cell holds a synced user's or policy's id without its name: a cell that
 * is the id alone has the name in the same row (an ID column beside its name column), and an id
 * inside longer text (a list, settings, parameters, JSON) is written "Name <email> (id)". The rows
 * the app's lists and details read carry the same names.
 */
import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/main/api/client';
import { exportReport } from '../../src/main/reports';
import { detailOf, listWindow, nameLookup, rowOf } from '../../src/main/rpc/read-models';
import { openStore, type Store } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { RAW } from '../helpers/report-cells';

const dir = mkdtempSync(join(tmpdir(), 'attest-report-names-'));
const file = join(dir, 'evidence.xlsx');
let tenant: ReferenceTenant;
let store: Store;
const NOT_DATA = new Set(['Cover', 'Evidence', RAW]);

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 7 });
  store = openStore(join(dir, 'store.sqlite'));
  const api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
  expect((await syncTenant({ store, api })).status).toBe('completed');
  await exportReport({
    kind: 'evidence',
    out: file,
    store,
    connection: { name: 'reference', tenantHost: new URL(tenant.url).host, clientId: tenant.clientId, serverUrl: tenant.url },
    appVersion: '0.0.0-test',
  });
});

afterAll(async () => {
  store?.close();
  await tenant?.close();
  rmSync(dir, { recursive: true, force: true });
});

const text = (value: ExcelJS.CellValue): string =>
  value === null || value === undefined
    ? ''
    : value instanceof Date
      ? value.toISOString()
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

describe('user and policy ids in the evidence workbook', () => {
  it('every one is written with its name: beside it in the row, or as "Name <email> (id)" in the cell', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    // What each id must read as: people by name and email, policies by name.
    // A row naming the object itself (the Users and Policies sheets) may hold its name in parts.
    const named = new Map<string, { name: string; label: string; parts: string[] }>();
    for (const user of tenant.data.users.values()) {
      const name = `${user.displayName} <${user.email}>`;
      named.set(user.id!, { name, label: `${name} (${user.id})`, parts: [user.displayName!, user.email!] });
    }
    for (const policy of tenant.data.policies.values())
      named.set(policy.id!, { name: policy.displayName!, label: `${policy.displayName} (${policy.id})`, parts: [policy.displayName!] });
    const ids = new RegExp([...named.keys()].join('|'), 'g');

    const bare: string[] = [];
    const labelled = new Map<string, number>();
    for (const ws of wb.worksheets) {
      if (NOT_DATA.has(ws.name)) continue;
      ws.eachRow((row, r) => {
        if (r === 1) return; // the header
        const cells = (row.values as ExcelJS.CellValue[]).slice(1).map(text);
        cells.forEach((cell, c) => {
          for (const match of cell.matchAll(ids)) {
            const id = match[0];
            const { name, label, parts } = named.get(id)!;
            const inRow = cells.some((other) => other === name || other.includes(label)) || parts.every((part) => cells.includes(part));
            const ok = cell === id ? inRow : cell.includes(label);
            if (ok) labelled.set(ws.name, (labelled.get(ws.name) ?? 0) + 1);
            else bare.push(`${ws.name}!R${r}C${c + 1}: ${cell.slice(0, 200)}`);
          }
        });
      });
    }
    expect(bare, bare.slice(0, 20).join('\n')).toEqual([]);
    // Not vacuous: the sheets that name people and policies do name them.
    for (const sheet of ['Campaigns', 'Campaign settings', 'Templates', 'Template settings', 'Tasks', 'Task details', 'Users', 'Policies'])
      expect(labelled.get(sheet) ?? 0, sheet).toBeGreaterThan(0);
  });

  it('shows the creator of a campaign by name and email and its policy by name, ids beside them', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.getWorksheet('Campaigns')!;
    const headers = (ws.getRow(1).values as ExcelJS.CellValue[]).map(text);
    const at = (header: string) => headers.indexOf(header);
    expect(at('Created by ID')).toBeGreaterThan(0);
    expect(at('Created by')).toBe(at('Created by ID') + 1);
    expect(at('Policy')).toBe(at('Policy ID') + 1);
    const campaign = [...tenant.data.campaigns.values()][0]!;
    let found = false;
    ws.eachRow((row) => {
      const v = (row.values as ExcelJS.CellValue[]).map(text);
      if (v[at('ID')] !== campaign.id) return;
      found = true;
      const creator = tenant.data.users.get(campaign.createdById!)!;
      expect(v[at('Created by ID')]).toBe(campaign.createdById);
      expect(v[at('Created by')]).toBe(`${creator.displayName} <${creator.email}>`);
      expect(v[at('Policy')]).toBe(tenant.data.policies.get(campaign.policyId!)!.displayName);
    });
    expect(found).toBe(true);
  });

  it('the rows of the lists and details name the creator, the policy and the identity user of an app user', () => {
    const lookup = nameLookup(store);
    const campaign = [...tenant.data.campaigns.values()][0]!;
    const creator = tenant.data.users.get(campaign.createdById!)!;
    const { rows } = listWindow(store, 'campaigns', { filters: {}, offset: 0, limit: 100 });
    const row = rowOf(
      rows.find((r) => r.id === campaign.id)!,
      lookup,
    );
    expect(row.cells.createdById).toBe(creator.id);
    expect(row.names).toMatchObject({
      createdById: `${creator.displayName} <${creator.email}>`,
      policyId: tenant.data.policies.get(campaign.policyId!)!.displayName,
      accessReviewTemplateId: tenant.data.templates.get(campaign.accessReviewTemplateId!)!.displayName,
    });
    const account = [...tenant.data.appUsers.values()][0]!;
    const person = tenant.data.users.get(account.identityUserId)!;
    const detail = detailOf(store.getObject('app-users', account.id)!, lookup);
    expect(detail.names?.identityUserId).toBe(`${person.displayName} <${person.email}>`);
    // A policy lists its approvers by name, in the order of their ids.
    const policy = store.listObjects('policies', { limit: 100 }).rows.find((p) => p.columns.approverIds)!;
    const approverIds = String(policy.columns.approverIds).split(', ');
    expect(rowOf(policy, lookup).names?.approverIds).toBe(
      approverIds.map((id) => `${tenant.data.users.get(id)!.displayName} <${tenant.data.users.get(id)!.email}>`).join(', '),
    );
  });
});
