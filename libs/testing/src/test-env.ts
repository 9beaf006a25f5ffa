import { randomBytes } from 'node:crypto';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { testServers } from './config';

export interface TestEnv {
  databaseUrl: string;
  amqpUrl: string;
  namespace: string;
  /** Environment for a service started in this test file. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

const ADMIN_URL = testServers.adminDatabaseUrl;
const AMQP_URL = testServers.amqpUrl;

/**
 * An isolated PostgreSQL database and bus namespace for one test file, carved out of the
 * servers named by DATABASE_URL and AMQP_URL. Queues it declares expire once unused.
 */
export async function createTestEnv(label = 'test'): Promise<TestEnv> {
  const suffix = randomBytes(5).toString('hex');
  const dbName = `pb_${label.replace(/\W/g, '_').slice(0, 30)}_${suffix}`.toLowerCase();
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const namespace = `t.${dbName}`;
  return {
    databaseUrl,
    amqpUrl: AMQP_URL,
    namespace,
    env: {
      DATABASE_URL: databaseUrl,
      AMQP_URL,
      BUS_NAMESPACE: namespace,
      BUS_EPHEMERAL: 'true',
      LOG_LEVEL: testServers.logLevel,
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
    },
    async drop() {
      const c = new Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await c.end();
      // Queues expire by themselves (BUS_EPHEMERAL); the namespace's exchange is removed here.
      const amqp = await connect(AMQP_URL);
      const ch = await amqp.createChannel();
      await ch.deleteExchange(`${namespace}.events`).catch(() => undefined);
      await amqp.close().catch(() => undefined);
    },
  };
}
