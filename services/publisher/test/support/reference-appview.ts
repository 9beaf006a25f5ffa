import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ATPROTO = join(__dirname, '..', '..', '..', '..', 'tests', 'atproto');

export interface AppViewAccount {
  handle: string;
  did: string;
  appPassword: string;
}

/**
 * Bluesky's whole reference network (@atproto/dev-env TestNetwork: the PDS and the bsky AppView, on the
 * Node.js 22 of tests/atproto, the AppView's database in our test PostgreSQL), with the accounts asked for.
 */
export interface ReferenceAppView {
  pdsUrl: string;
  appViewUrl: string;
  accounts: AppViewAccount[];
  /** Asks the network to index everything the PDS wrote; answers its reply (`{ synced: true }`). */
  sync(): Promise<unknown>;
  stop(): Promise<void>;
}

/** Builds what the network needs once (tests/atproto/prepare.mjs), starts it and waits for its first line. */
export async function startReferenceAppView(databaseUrl: string, names: string[]): Promise<ReferenceAppView> {
  const prepared = spawnSync(process.execPath, [join(ATPROTO, 'prepare.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (prepared.status !== 0) throw new Error('tests/atproto/prepare.mjs failed (see above)');
  const network = spawn(prepared.stdout.trim(), [join(ATPROTO, 'appview-server.mjs'), databaseUrl, ...names], {
    cwd: ATPROTO,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: network.stdout });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      network.once('exit', (code) => reject(new Error(`the network exited (${code})`)));
    });
  const started = JSON.parse(await nextLine()) as { pdsUrl: string; appViewUrl: string; accounts: AppViewAccount[] };
  return {
    ...started,
    async sync() {
      network.stdin.write('sync\n');
      return JSON.parse(await nextLine());
    },
    async stop() {
      if (network.exitCode !== null) return;
      const exited = new Promise((resolve) => network.once('exit', resolve));
      network.stdin?.end();
      await exited;
    },
  };
}
