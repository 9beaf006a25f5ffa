import { createServer } from 'node:net';

/** Ports handed out by freePort in this process, never handed out twice. */
const handedOut = new Set<number>();

/**
 * A port that was free a moment ago, so URLs under the gateway can be known before it starts.
 * Taken below the kernel's ephemeral range (32768–60999 on Linux), where listeners on port 0
 * and outgoing connections of other test files never land while this one is not yet bound.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port)) continue;
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => server.close(resolve));
    handedOut.add(port);
    return port;
  }
}
