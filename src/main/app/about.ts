/**
 * About Attest: the third-party licence notices that the build writes beside the renderer bundle
 * (`third-party-notices.json`, see scripts/third-party-notices.mjs), read for the About dialog.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

export const NOTICES_FILE = 'third-party-notices.json';

const Notices = z.object({
  generatedAt: z.string(),
  packages: z.array(z.object({ name: z.string(), version: z.string(), licenses: z.string(), repository: z.string(), text: z.string() })),
});
export type Notices = z.infer<typeof Notices>;

/** The notices of this build; null when the build wrote none (a development run) or the file is not ours. */
export async function readNotices(file: string): Promise<Notices | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = Notices.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
