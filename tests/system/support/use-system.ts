import { Client } from 'pg';
import {
  callSandbox,
  createTestEnv,
  makeTestMedia,
  startMediaServer,
  type MediaServer,
  type SeededAccount,
  type TestEnv,
  type TestMedia,
} from '@postbus/testing';
import { startSystem, type RunningSystem } from './system';

export interface SystemSetup {
  /** Settings beside the test system's own (startSystem's `extraEnv`). */
  env?: Record<string, string>;
  /** Test media files on disk (makeTestMedia), made while the services start, removed after. */
  files?: boolean;
  /** Runs once every service is up, before the account is seeded: sandbox settings, a service stopped. */
  prepare?: (system: RunningSystem) => Promise<unknown>;
  /** The account the file's tests act as, seeded with these options; none when left out. */
  account?: Parameters<RunningSystem['seedAccount']>[0];
  /** A server of linked media files (startMediaServer). */
  mediaServer?: boolean;
  /** A client of the system's database, to read what the services stored. */
  db?: boolean;
}

/** What `useSystem` set up, filled in before the file's first test; a part not asked for stays undefined. */
export interface SystemContext {
  env: TestEnv;
  system: RunningSystem;
  account: SeededAccount;
  files: TestMedia;
  media: MediaServer;
  db: Client;
}

/**
 * The whole system for one test file: before its tests, a database and bus namespace of its own (named
 * after `label`), every service started, and what `setup` asks for; after them, all of it stopped and
 * dropped. Hooks a file adds itself run after these (beforeAll) and after the system stopped (afterAll).
 */
export function useSystem(label: string, setup: SystemSetup = {}): SystemContext {
  const ctx = {} as SystemContext;
  beforeAll(async () => {
    ctx.env = await createTestEnv(label);
    [ctx.system, ctx.files] = await Promise.all([
      startSystem(ctx.env, setup.env),
      setup.files ? makeTestMedia() : (undefined as unknown as TestMedia),
    ]);
    await setup.prepare?.(ctx.system);
    if (setup.account) ctx.account = await ctx.system.seedAccount(setup.account);
    if (setup.mediaServer) ctx.media = await startMediaServer();
    if (setup.db) {
      ctx.db = new Client({ connectionString: ctx.env.databaseUrl });
      await ctx.db.connect();
    }
  });
  afterAll(async () => {
    await ctx.db?.end();
    await ctx.media?.close();
    await ctx.system?.stop();
    await ctx.env?.drop();
    await ctx.files?.remove();
  });
  return ctx;
}

/** Engagement collected 1 s, 4 s and 12 s after publishing, instead of 1 h, 24 h and 7 days. */
export const FAST_INSIGHTS_ENV: Record<string, string> = { INSIGHTS_OFFSETS: '1s,4s,12s', INSIGHTS_INTERVAL_MS: '100' };

/** An audited TikTok client, as a live one is: posts may ask for PUBLIC_TO_EVERYONE. */
export function auditTikTok(system: RunningSystem): Promise<unknown> {
  return callSandbox(system.sandboxUrl, 'POST', '/tiktok/audit', { unaudited: false });
}
