/**
 * The journal told in words: each entry with the change it is about, naming the objects by the
 * names the store has for them (a removal: the app, the entitlement and the user), not only by id.
 */
import type { OutboxDb } from './items';
import { toEntry } from './journal';
import { descriptorOf, type ValidationContext } from './kinds';
import type { JournalEntryInWords, JournalFilter, MutationKind } from './types';

/** `summary` with each id of `input` that has a name given as `name (id)` (its first mention). */
export function inWords(summary: string, input: Record<string, unknown>, names: Record<string, string>): string {
  let out = summary;
  for (const [field, name] of Object.entries(names)) {
    const id = input[field];
    if (typeof id !== 'string' || !id || !name || name === id) continue;
    const at = out.indexOf(id);
    if (at >= 0) out = `${out.slice(0, at)}${name} (${id})${out.slice(at + id.length)}`;
  }
  return out;
}

/** The names the store has for the ids of an item's input (none when the store cannot tell). */
function namesOf(kind: MutationKind, input: Record<string, unknown>, ctx: ValidationContext): Record<string, string> {
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
      change = inWords(row.item_summary ?? entry.target, input, namesOf(entry.kind, input, ctx));
      words.set(entry.itemId, change);
    }
    return { ...entry, change, batchId: row.item_batch };
  });
  return { entries, total: o.journal.count(filter) };
}
