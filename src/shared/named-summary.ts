/**
 * A change's summary in words: each id of its input the store has a name for written as
 * `name (id)`, name first ("remove user Ada Lovelace (u-1) from entitlement Admins (e-7) ..."), for
 * every place a change is shown: the outbox's rows, previews, the journal, the CLI.
 */
export function namedSummary(summary: string, input: Record<string, unknown>, names: Record<string, string>): string {
  let out = summary;
  for (const [field, name] of Object.entries(names)) {
    const id = valueAt(input, field);
    if (typeof id !== 'string' || id === '' || !name || name === id) continue;
    // The id as a word of its own (not inside a longer id), its first occurrence.
    const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`(?<![^\\s'(])${escaped}(?![^\\s',):])`, 'u').exec(out);
    if (!match) continue;
    out = `${out.slice(0, match.index)}${name} (${id})${out.slice(match.index + id.length)}`;
  }
  return out;
}

/** The value of an input field, or of one element of a list field (`ownerIds[1]`). */
function valueAt(input: Record<string, unknown>, field: string): unknown {
  const element = /^(\w+)\[(\d+)\]$/.exec(field);
  if (!element) return input[field];
  const list = input[element[1]!];
  return Array.isArray(list) ? (list[Number(element[2])] as unknown) : undefined;
}
