import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordedParameters, verifyWorkbook, type OriginalWorkbook, type VerifyOptions, type VerifyResult } from '../../reports';
import { openWorkspace } from '../workspace';
import { runExport } from './export';

// The verifier's own checks and words, for a front that reads a workbook and tells its verdict.
export {
  CANONICAL_FORM,
  changedSheets,
  fingerprintFromKeyText,
  normaliseFingerprint,
  propertiesLine,
  READ_LIMITS,
  verifyWorkbook,
  type VerifyResult,
} from '../../reports';

/**
 * `attest verify` for both fronts: the workbook's hashes, and where a sheet changed and the store
 * that exported it is at hand (the connection the Evidence sheet names, of the same tenant and
 * client), the same report exported again from it, so each changed cell is told with its old
 * value. The store is only read, and needs no secret; the export again goes to a temp folder.
 */
export function verifyWithStore(
  file: string,
  dataDir: string | null,
  options: Omit<VerifyOptions, 'original'> = {},
): Promise<VerifyResult> {
  return verifyWorkbook(file, { ...options, original: dataDir ? (manifest) => exportedAgain(dataDir, manifest) : undefined });
}

async function exportedAgain(dataDir: string, manifest: Record<string, string>): Promise<OriginalWorkbook | null> {
  const recorded = recordedParameters(manifest.Parameters);
  const name = manifest.Connection;
  if (!recorded || !name) return null;
  let workspace;
  try {
    workspace = await openWorkspace(dataDir, name, { existing: true });
  } catch {
    return null; // no such connection here, or nothing synced: the cells are not located
  }
  const dir = await mkdtemp(join(tmpdir(), 'attest-verify-'));
  const dispose = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    const { connection } = workspace;
    if (connection.hostname !== manifest.Tenant || connection.clientId !== manifest['Client ID']) {
      await dispose();
      return null;
    }
    const generatedAt = new Date(manifest['Generated at (ISO)'] ?? '');
    const out = join(dir, 'exported-again.xlsx');
    await runExport(workspace, {
      kind: recorded.kind,
      params: recorded.params,
      out,
      appVersion: manifest['App version'] ?? '',
      preparedBy: manifest['Prepared by'],
      now: Number.isFinite(generatedAt.getTime()) ? () => generatedAt : undefined,
    });
    return { file: out, source: `the store of the connection ${connection.name}`, dispose };
  } catch {
    await dispose();
    return null;
  } finally {
    workspace.close();
  }
}
