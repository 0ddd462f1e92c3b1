/**
 * The journal told in words: each entry with the change it is about, naming the objects by the
 * names the store has for them (a removal: the app, the entitlement and the user), not only by id.
 */
import { namedSummary } from '../../shared/named-summary';
import type { OutboxDb } from './items';
import { toEntry } from './journal';
import { cachingContext, descriptorOf, type ValidationContext } from './kinds';
import type { JournalEntryInWords, JournalFilter, MutationKind, OutboxItem } from './types';

/** The names the store has for the ids of an item's input (none when the store cannot tell). */
export function namesOf(kind: MutationKind, input: Record<string, unknown>, ctx: ValidationContext): Record<string, string> {
  try {
    return descriptorOf(kind).checkStore?.(input, ctx).names ?? {};
  } catch {
    return {};
  }
}

/** A page of the journal (newest first unless the filter says otherwise), each entry in words, and how many entries match. */
export function journalInWords(
  o: OutboxDb,
  ctx: ValidationContext,
  filter: JournalFilter,
): { entries: JournalEntryInWords[]; total: number } {
  const words = new Map<string, string>();
  const entries = o.journal.rows(filter).map((row): JournalEntryInWords => {
    const entry = toEntry(row);
    let change = words.get(entry.itemId);
    if (change === undefined) {
      const input = row.item_input ? (JSON.parse(row.item_input) as Record<string, unknown>) : {};
      change = namedSummary(row.item_summary ?? entry.target, input, namesOf(entry.kind, input, ctx));
      words.set(entry.itemId, change);
    }
    return { ...entry, change, batchId: row.item_batch };
  });
  return { entries, total: o.journal.count(filter) };
}

/** Each item's summary in words (name first, the id beside it), by item id: the outbox's rows and the CLI's lists. */
export function summariesInWords(ctx: ValidationContext, items: readonly OutboxItem[]): Map<string, string> {
  // A page names the same apps and entitlements on many rows: each read once.
  const cached = cachingContext(ctx);
  return new Map(items.map((i) => [i.id, namedSummary(i.summary, i.input, namesOf(i.kind, i.input, cached))]));
}
