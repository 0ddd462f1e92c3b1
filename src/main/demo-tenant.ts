import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The demo tenant: the reference tenant started as a child process on loopback with demo data
 * (the core never imports src/tenant). It prints one JSON line with its URL and fresh
 * credentials; it is stopped by its PID when the app closes.
 */

export interface DemoTenantInfo {
  url: string;
  domain: string;
  clientId: string;
  clientSecret: string;
}

export interface DemoTenant {
  info: DemoTenantInfo;
  pid: number;
  stop(): Promise<void>;
}

export interface DemoTenantLaunch {
  /** The Node (or Electron-as-Node) executable. */
  execPath: string;
  /** bin/attest.mjs. */
  cliPath: string;
  /** Extra environment (Electron sets ELECTRON_RUN_AS_NODE=1 here). */
  env?: NodeJS.ProcessEnv;
  scale?: string;
  timeoutMs?: number;
}

function isInfo(value: unknown): value is DemoTenantInfo {
  const v = value as Partial<DemoTenantInfo> | null;
  return Boolean(v && typeof v.url === 'string' && typeof v.clientId === 'string' && typeof v.clientSecret === 'string');
}

export async function startDemoTenant(launch: DemoTenantLaunch): Promise<DemoTenant> {
  const child: ChildProcess = spawn(launch.execPath, [launch.cliPath, 'tenant', '--scale', launch.scale ?? 'demo', '--port', '0'], {
    env: { ...process.env, ...launch.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(force);
  };
  try {
    const info = await new Promise<DemoTenantInfo>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('The demo tenant did not start within its time limit.')), launch.timeoutMs ?? 60_000);
      const lines = createInterface({ input: child.stdout! });
      lines.once('line', (line) => {
        clearTimeout(timer);
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          parsed = null;
        }
        if (isInfo(parsed)) resolve(parsed);
        else reject(new Error('The demo tenant answered something unexpected at start.'));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`The demo tenant could not be started: ${error.message}`));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        const reason = stderr.trim().split('\n').at(-1) ?? '';
        reject(new Error(`The demo tenant stopped at start (exit ${code ?? 'signal'})${reason ? `: ${reason.slice(0, 200)}` : ''}.`));
      });
    });
    return { info, pid: child.pid ?? -1, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
