import { Client } from 'pg';
import type { Bus } from '@postbus/bus';
import { openTestBus } from './test-bus';
import { createTestEnv, type TestEnv } from './test-env';

/** What `useTestEnv` opened, filled in before the first test of the file or describe block. */
export interface TestEnvContext {
  env: TestEnv;
  /** A bus client in the env's namespace, to call the services a test starts. */
  bus: Bus;
  /** A client of the env's database, to read and tamper with what the services stored. */
  db: Client;
}

/**
 * A database and bus namespace of its own (createTestEnv) for the tests of the file or describe block this
 * is called in, with a bus client and a database client on them; closed and dropped after those tests.
 */
export function useTestEnv(label: string): TestEnvContext {
  const ctx = {} as TestEnvContext;
  beforeAll(async () => {
    ctx.env = await createTestEnv(label);
    ctx.bus = await openTestBus(ctx.env);
    ctx.db = new Client({ connectionString: ctx.env.databaseUrl });
    await ctx.db.connect();
  });
  afterAll(async () => {
    await ctx.db?.end();
    await ctx.bus?.close();
    await ctx.env?.drop();
  });
  return ctx;
}
