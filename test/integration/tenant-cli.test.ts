/**
 * `attest tenant` as a process: one JSON line on stdout, a working API with those credentials
 * (signed-assertion flow, as the app uses), exit 0 on SIGTERM; usage errors exit 2.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { importJWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function attest(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['bin/attest.mjs', ...args], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
}

describe('attest tenant', () => {
  it('prints one JSON line, serves the API with those credentials, and exits 0 on SIGTERM', async () => {
    const child = attest(['tenant', '--port', '0', '--seed', '7']);
    const done = exited(child);
    try {
      const lines = createInterface({ input: child.stdout });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', () => reject(new Error('attest tenant exited before printing its line')));
      });
      const info = JSON.parse(first) as { url: string; domain: string; clientId: string; clientSecret: string };
      expect(Object.keys(info)).toEqual(['url', 'domain', 'clientId', 'clientSecret']);
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.domain).toBe('127.0.0.1');
      const port = new URL(info.url).port;
      expect(info.clientId).toMatch(new RegExp(`^[a-z0-9]+@127\\.0\\.0\\.1:${port}/attest$`));
      expect(info.clientSecret.startsWith('secret-token:conductorone.com:v1:')).toBe(true);

      const jwk = JSON.parse(Buffer.from(info.clientSecret.split(':').pop()!, 'base64url').toString('utf8'));
      const now = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({
        iss: info.clientId,
        sub: info.clientId,
        aud: [info.domain],
        iat: now,
        nbf: now - 120,
        exp: now + 120,
      })
        .setProtectedHeader({ alg: 'EdDSA', nonce: randomBytes(16).toString('hex') } as { alg: string })
        .sign(await importJWK(jwk, 'EdDSA'));
      const token = await fetch(`${info.url}/auth/v1/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: info.clientId,
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }),
      });
      expect(token.status).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      const reviews = await fetch(`${info.url}/api/v1/access_reviews`, { headers: { Authorization: `Bearer ${access_token}` } });
      expect(reviews.status).toBe(200);
      expect(((await reviews.json()) as { list: unknown[] }).list.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
    const { code, signal, stderr } = await done;
    expect(signal).toBeNull();
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/reference tenant on http:\/\/127\.0\.0\.1:\d+: seed 7, \d+ objects/);
  });

  it('--help documents the options and the fault spec; bad options exit 2; a non-loopback host is refused', async () => {
    const help = attest(['tenant', '--help']);
    const helped = await exited(help);
    expect(helped.code).toBe(0);
    for (const word of [
      '--seed',
      '--scale',
      '--token-ttl',
      '--faults',
      'latency=MS',
      'retryAfter=N|date',
      'dropAfterApply=P',
      'emptyPages=P',
      'cycleTokens=N',
      'tokenExpireEarly=P',
      'search/apps',
      'search/entitlements',
      'search/app_users',
      'search/grants',
      'apps/{app_id}/entitlements/{app_entitlement_id}/users',
      'secret-token:conductorone.com:v1:',
    ])
      expect(helped.stderr).toContain(word);

    const bad = [['--faults', 'teleport=1'], ['--scale', 'huge'], ['--port', 'eighty'], ['--bogus']];
    const [outside, ...results] = await Promise.all([
      exited(attest(['tenant', '--host', '0.0.0.0'])),
      ...bad.map((args) => exited(attest(['tenant', ...args]))),
    ]);
    results.forEach((result, i) => {
      expect(result.code, bad[i]!.join(' ')).toBe(2);
      expect(result.stderr).toContain('Usage: attest tenant');
    });

    expect(outside!.code).toBe(1);
    expect(outside!.stderr).toMatch(/loopback only/);
  });
});
