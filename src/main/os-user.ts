/**
 * Who is preparing a workbook, as the operating system knows them: the full name of the account
 * (the first field of its GECOS entry, through `getent passwd`, which sees LDAP and other NSS
 * sources too, else /etc/passwd) with the login name, or the login name alone.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

/** The full name in a passwd line (`name:pw:uid:gid:GECOS:home:shell`), or null. */
export function fullNameOf(passwdLine: string, login: string): string | null {
  const fields = passwdLine.split(':');
  if (fields.length < 7 || fields[0] !== login) return null;
  const name = (fields[4] ?? '')
    .split(',')[0]!
    .replace(/&/g, login.charAt(0).toUpperCase() + login.slice(1))
    .trim();
  return name && name !== login ? name : null;
}

function passwdLine(login: string): string | null {
  try {
    const out = execFileSync('getent', ['passwd', login], { encoding: 'utf8', timeout: 2_000, stdio: ['ignore', 'pipe', 'ignore'] });
    const line = out.split('\n').find((l) => l.startsWith(`${login}:`));
    if (line) return line;
  } catch {
    // no getent (macOS, Windows) or no entry: try the file
  }
  try {
    return (
      readFileSync('/etc/passwd', 'utf8')
        .split('\n')
        .find((l) => l.startsWith(`${login}:`)) ?? null
    );
  } catch {
    return null;
  }
}

/** "Full Name (login)" where the system knows a full name, else the login name. */
export function osUserName(): string {
  let login: string;
  try {
    login = userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
  const line = process.platform === 'win32' ? null : passwdLine(login);
  const full = line ? fullNameOf(line, login) : null;
  return full ? `${full} (${login})` : login;
}
