import { COLLECTION_IDS, isCollectionId, type CollectionId } from '../../main/app/collections';
import { defaultDataDir } from '../../main/app/data-dir';
import { openStoreFile, openWorkspace, StoreMissingError, type OpenOptions, type Workspace } from '../../main/app/workspace';
import { UsageError, type CliIO } from '../io';

/**
 * Every collection, as a usage text names them ("campaigns, templates, … or tasks"), in lines of
 * at most 90 characters, each after `indent`.
 */
export function collectionsInWords(indent = ''): string {
  const words = COLLECTION_IDS.map((id, i) => (i < COLLECTION_IDS.length - 2 ? `${id},` : id));
  words.splice(-1, 0, 'or');
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && indent.length + last.length + word.length < 90) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => indent + line).join('\n');
}

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

export interface WorkspaceFlags {
  connection?: string | undefined;
  'data-dir'?: string | undefined;
  store?: string | undefined;
}

export function dataDirOf(values: WorkspaceFlags, io: CliIO): string {
  return values['data-dir'] ?? defaultDataDir(io.env);
}

/**
 * The workspace of `--store FILE` or of `--connection NAME` (default: the last used), through the
 * application layer's one opener. The secret, when a command needs the tenant, is looked for in
 * the keychain, then in ATTEST_CLIENT_SECRET (with a notice on stderr).
 */
export function openWorkspaceFor(values: WorkspaceFlags, io: CliIO, opts: OpenOptions = {}): Promise<Workspace> {
  if (values.store) return Promise.resolve(openStoreFile(values.store, opts));
  return openWorkspace(dataDirOf(values, io), values.connection, { env: io.env, onNotice: (m) => io.err(m), ...opts });
}

/** Opens the workspace of `--store FILE` or of the connection for an offline read, refusing one that was never synced. */
export async function openForReading(values: WorkspaceFlags, io: CliIO): Promise<Workspace> {
  try {
    return await openWorkspaceFor(values, io, { existing: true });
  } catch (error) {
    if (error instanceof StoreMissingError) throw new UsageError(`no local data yet at ${error.file}: run \`attest sync\` first`);
    throw error;
  }
}

export function collectionArg(value: string, flag = 'collection'): CollectionId {
  if (!isCollectionId(value)) throw new UsageError(`${flag} must be one of ${COLLECTION_IDS.join(', ')}, not '${value}'`);
  return value;
}

/** The most any count or id option takes unless it says less: far above any real use, far below where numbers lose precision. */
export const OPTION_MAX = 1_000_000_000;

/** A whole number from `min` to `max` given as an option (digits only: no 1e3, no 0x10, no 999999999999999999999). */
export function intOption(value: string, flag: string, min: number, max: number = OPTION_MAX): number {
  const text = value.trim();
  const n = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) {
    const shown = text.length > 24 ? `${text.slice(0, 24)}…` : text;
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max.toLocaleString('en-US')}, not '${shown}'`);
  }
  return n;
}

export function positiveInt(value: string, flag: string, max: number = OPTION_MAX): number {
  return intOption(value, flag, 1, max);
}
