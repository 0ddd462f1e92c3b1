/**
 * Which links the app may open outside itself (in the OS browser): https only, a real host, no
 * credentials in the URL, at most 2000 characters. Pure, so the shell and the core's handler
 * apply the same rule.
 */
export function isSafeExternalUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  if (!url.hostname || url.username || url.password) return false;
  return value.length <= 2000;
}
