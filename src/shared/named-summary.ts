/**
 * A change's summary with the names the store has beside its ids ("remove user u-1 (Ada Lovelace)
 * from entitlement e-7 (Admins) ..."), for previews in the app and the CLI.
 */
export function namedSummary(summary: string, input: Record<string, unknown>, names: Record<string, string>): string {
  let out = summary;
  for (const [field, name] of Object.entries(names)) {
    const id = input[field];
    if (typeof id !== 'string' || id === '' || !name || name === id) continue;
    // The id as a word of its own (not inside a longer id), its first occurrence.
    const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`(?<![^\\s'(])${escaped}(?![^\\s',):])`, 'u').exec(out);
    if (!match) continue;
    const end = match.index + id.length;
    out = `${out.slice(0, end)} (${name})${out.slice(end)}`;
  }
  return out;
}
