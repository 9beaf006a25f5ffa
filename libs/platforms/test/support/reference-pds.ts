import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Bluesky's own reference PDS (@atproto/pds with a local PLC, run by @atproto/dev-env on the
 * Node.js 22 of tests/atproto), with the accounts a test asks for.
 */
export const ATPROTO = join(__dirname, '..', '..', '..', '..', 'tests', 'atproto');

export interface PdsAccount {
  handle: string;
  did: string;
  /** The account's own password (the PDS's sign-in page takes it). */
  password: string;
  appPassword: string;
}

export interface ReferencePds {
  /** The Node.js 22 binary the PDS runs on. */
  node22: string;
  pdsUrl: string;
  plcUrl: string;
  accounts: PdsAccount[];
  stop(): Promise<void>;
}

/** Builds what the PDS needs once (tests/atproto/prepare.mjs), starts it and waits for its first line. */
export async function startReferencePds(names: string[]): Promise<ReferencePds> {
  const prepared = spawnSync(process.execPath, [join(ATPROTO, 'prepare.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (prepared.status !== 0) throw new Error('tests/atproto/prepare.mjs failed (see above)');
  const node22 = prepared.stdout.trim();
  const pds: ChildProcess = spawn(node22, [join(ATPROTO, 'pds-server.mjs'), ...names], {
    cwd: ATPROTO,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: pds.stdout! }).once('line', resolve);
    pds.once('exit', (code) => reject(new Error(`the PDS exited (${code}) before it was ready`)));
  });
  const started = JSON.parse(line) as { pdsUrl: string; plcUrl: string; accounts: PdsAccount[] };
  return {
    node22,
    ...started,
    async stop() {
      if (pds.exitCode !== null) return;
      const exited = new Promise((resolve) => pds.once('exit', resolve));
      pds.stdin?.end();
      await exited;
    },
  };
}
