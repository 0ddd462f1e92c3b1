import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface Relay {
  url: string;
  port: number;
  /** Refuses new connections and cuts every open one: the tenant is unreachable. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay on loopback standing for the network between Attest and the tenant, so tests can
 * lose the link mid-request and bring it back on the same address.
 */
export async function startRelay(targetPort: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve, reject) => {
      const listening = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server = listening;
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as AddressInfo).port;
        resolve();
      });
    });
  const down = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await up();
  return { url: `http://127.0.0.1:${port}`, port, down, up, close: down };
}
