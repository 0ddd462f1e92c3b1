/**
 * Checks of a valid change against the local store, shared by the kinds' `checkStore`: the objects
 * a change names looked up by id, their names (shown beside the ids in previews), and findings
 * phrased alike for every front (the app's forms, `attest queue add`, CSV import). The store is
 * sure of what never changes (an entitlement's type, the app it belongs to), and of what a complete
 * collection does not hold: those are refusals. What a partial collection does not hold, or holds in
 * an older state, it may simply not have synced yet: warnings.
 */
import { collection as collectionOf, isCollectionId } from '../../collections';
import type { StoreCheck, StoreFinding, ValidationContext } from './descriptor';

/** How a collection's objects are called in findings. */
const NOUNS: Record<string, string> = {
  apps: 'app',
  entitlements: 'entitlement',
  'app-users': 'app user',
  memberships: 'membership',
  tasks: 'task',
  templates: 'template',
  users: 'user',
  policies: 'policy',
  campaigns: 'campaign',
};

const day = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

/** Gathers the findings and names of one change. */
export class StoreChecker {
  readonly #findings: StoreFinding[] = [];
  readonly #names: Record<string, string> = {};

  constructor(readonly ctx: ValidationContext) {}

  /** The display name of a stored object (its collection's search title), or ''. */
  static nameOf(collection: string, json: unknown): string {
    if (!isCollectionId(collection)) return '';
    try {
      return collectionOf(collection).searchText(json).title;
    } catch {
      return '';
    }
  }

  /** `id (name)`, or `id` when the store has no name for it. */
  label(field: string, id: string): string {
    const name = this.#names[field];
    return name ? `${id} (${name})` : id;
  }

  /**
   * The object `id` of `collection`, named under `field`, when the store holds it and the last
   * walk still saw it; otherwise null, with a warning that says what the store knows of it.
   */
  find(field: string, collection: string, id: string): Record<string, unknown> | null {
    const noun = NOUNS[collection] ?? collection;
    const found = this.ctx.stored(collection, id);
    const name = found ? StoreChecker.nameOf(collection, found.json) : '';
    if (name) this.#names[field] = name;
    if (found && !found.deleted) return found.json;
    const complete = this.ctx.completeRun(collection);
    if (complete) {
      // The last full walk saw every object of the tenant: one it did not see is not there.
      const at = `as of run ${complete.runId} (${day(complete.finishedAt)}; sync again if it is newer)`;
      this.refuse(
        field,
        found
          ? `${noun} ${this.label(field, id)} is not in the tenant ${at}: it was removed`
          : `unknown ${noun} ${id}: not in the tenant ${at}`,
      );
      return null;
    }
    const asOf = this.ctx.syncedAsOf(collection);
    if (found)
      this.warn(field, `${noun} ${this.label(field, id)} was gone from the tenant at the last sync${asOf ? ` (${day(asOf)})` : ''}`);
    else if (asOf === null) this.#findings.push({ severity: 'unchecked', field, message: uncheckedMessage(collection, noun) });
    else
      this.warn(
        field,
        `unknown ${noun} ${id}: not in the store (synced ${day(asOf)}); it may be newer than the last sync, or not exist` +
          (collection === 'templates' ? ' (`attest template add ID`, or "Add a template by id", reads one from the tenant)' : ''),
      );
    return null;
  }

  /** When `collection` was last synced completely, for messages ('' when never). */
  asOf(collection: string): string {
    const at = this.ctx.syncedAsOf(collection);
    return at ? day(at) : '';
  }

  refuse(field: string, message: string): void {
    this.#findings.push({ severity: 'refuse', field, message });
  }

  warn(field: string, message: string): void {
    this.#findings.push({ severity: 'warn', field, message });
  }

  result(): StoreCheck {
    return { findings: this.#findings, names: this.#names };
  }
}

const UNCHECKED = new Map<string, string>();

/** What is said of a collection never synced (once per collection: a CSV says it for every row). */
function uncheckedMessage(collection: string, noun: string): string {
  let message = UNCHECKED.get(collection);
  if (message === undefined) {
    const title = isCollectionId(collection) ? collectionOf(collection).title.toLowerCase() : collection;
    message = `${title} have not been synced yet: the ${noun} ids are not checked against the store`;
    UNCHECKED.set(collection, message);
  }
  return message;
}

/**
 * A context that reads each object and each collection's "as of" once (a CSV names the same apps
 * and entitlements on many rows). For one check step only: it does not see later writes.
 */
export function cachingContext(ctx: ValidationContext): ValidationContext {
  const stored = new Map<string, ReturnType<ValidationContext['stored']>>();
  const asOf = new Map<string, string | null>();
  const complete = new Map<string, ReturnType<ValidationContext['completeRun']>>();
  const found = new Map<string, ReturnType<ValidationContext['findObject']>>();
  return {
    findObject(collection, columns) {
      const key = JSON.stringify([collection, columns]);
      if (!found.has(key)) found.set(key, ctx.findObject(collection, columns));
      return found.get(key) ?? null;
    },
    completeRun(collection) {
      if (!complete.has(collection)) complete.set(collection, ctx.completeRun(collection));
      return complete.get(collection) ?? null;
    },
    synced: (collection, id) => ctx.synced(collection, id),
    stored(collection, id) {
      const key = `${collection}\u0000${id}`;
      if (!stored.has(key)) stored.set(key, ctx.stored(collection, id));
      return stored.get(key) ?? null;
    },
    syncedAsOf(collection) {
      if (!asOf.has(collection)) asOf.set(collection, ctx.syncedAsOf(collection));
      return asOf.get(collection) ?? null;
    },
  };
}
