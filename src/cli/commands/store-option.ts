import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { getConnection } from '../../main/connections';
import { defaultDataDir } from '../../main/data-dir';
import { openStore, type Store } from '../../main/store/db';
import { COLLECTION_IDS, isCollectionId, type CollectionId } from '../../main/collections';
import { UsageError, type CliIO } from '../io';

/** The options every offline read command takes to find its store. */
export const STORE_OPTIONS = {
  connection: { type: 'string' },
  'data-dir': { type: 'string' },
  store: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export const STORE_USAGE = `  --connection NAME   the connection whose store to read (default: the one used last)
  --data-dir DIR      where connections are recorded (default: the OS app-data folder; ATTEST_DATA_DIR)
  --store FILE        read this store file instead of a connection's`;

/** Opens the store of `--store FILE` or of the connection, refusing one that was never synced. */
export function openStoreFor(
  values: { connection?: string | undefined; 'data-dir'?: string | undefined; store?: string | undefined },
  io: CliIO,
): Store {
  const file = values.store
    ? resolve(values.store)
    : getConnection(values['data-dir'] ?? defaultDataDir(io.env), values.connection).storeFile;
  if (!existsSync(file)) throw new UsageError(`no local data yet at ${file}: run \`attest sync\` first`);
  return openStore(file);
}

export function collectionArg(value: string, flag = 'collection'): CollectionId {
  if (!isCollectionId(value)) throw new UsageError(`${flag} must be one of ${COLLECTION_IDS.join(', ')}, not '${value}'`);
  return value;
}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a whole number above 0`);
  return n;
}

/** Lays rows out in columns (the last column is not padded). */
export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
