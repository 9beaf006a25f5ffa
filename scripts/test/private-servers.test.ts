import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { ensurePrivatePostgres, ensurePrivateRabbit } from '../launch/local-servers';
import { findPgBin, type PrivatePostgres } from '../launch/private-postgres';
import { findRabbitBin, type PrivateRabbit } from '../launch/private-rabbitmq';

const exec = promisify(execFile);
const installed = !!findPgBin() && !!findRabbitBin();
const dir = mkdtempSync(join(tmpdir(), 'postbus-private-servers-'));
// under root the cluster runs as `postgres`, which must reach it (as it does .data/ in a checkout)
chmodSync(dir, 0o755);
const node = `pbtest_${randomBytes(3).toString('hex')}@localhost`;
const logged: string[] = [];
let pg: PrivatePostgres | undefined;
let rabbit: PrivateRabbit | undefined;

beforeAll(async () => {
  if (!installed) return;
  pg = await ensurePrivatePostgres(join(dir, 'postgres'), (line) => logged.push(line));
  rabbit = await ensurePrivateRabbit(join(dir, 'rabbitmq'), node, (line) => logged.push(line));
}, 180_000);

afterAll(async () => {
  await rabbit?.destroy();
  await pg?.destroy();
  rmSync(dir, { recursive: true, force: true });
}, 180_000);

const maybe = installed ? test : test.skip;

maybe(
  'when neither server runs, then a private PostgreSQL and RabbitMQ start under the folder and accept connections',
  async () => {
    const client = new Client({ connectionString: pg!.url });
    await client.connect();
    expect((await client.query('SELECT current_user AS user')).rows[0].user).toBe('postgres');
    await client.end();
    const connection = await connect(rabbit!.url);
    const channel = await connection.createChannel();
    const queue = `private-servers-${randomBytes(3).toString('hex')}`;
    await channel.assertQueue(queue, { exclusive: true });
    channel.sendToQueue(queue, Buffer.from('hello'));
    await expect(channel.checkQueue(queue)).resolves.toMatchObject({ queue });
    await connection.close();
    expect(logged.join('\n')).toMatch(/made and started a private cluster[\s\S]*started the private node/);
  },
);

maybe('when the servers are running, then a later run reuses them on the same ports', async () => {
  const again = await ensurePrivatePostgres(join(dir, 'postgres'), (line) => logged.push(line));
  const rabbitAgain = await ensurePrivateRabbit(join(dir, 'rabbitmq'), node, (line) => logged.push(line));
  expect(again.port).toBe(pg!.port);
  expect(rabbitAgain.port).toBe(rabbit!.port);
  expect(logged.slice(-2).join('\n')).toMatch(/is running on port[\s\S]*is running on port/);
});

maybe(
  "when rabbitmqctl is given the node's variables, then it administers the private node, not the machine's broker",
  async () => {
    // what the services' broker users are imported with (npm start, the tests' global setup)
    const rabbitmqctl =
      ['/usr/sbin/rabbitmqctl', '/usr/lib/rabbitmq/bin/rabbitmqctl'].find((file) => existsSync(file)) ?? 'rabbitmqctl';
    const { stdout } = await exec(rabbitmqctl, ['-q', 'status', '--formatter', 'json'], {
      env: { ...process.env, ...rabbit!.cliEnv },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout).listeners).toEqual(
      expect.arrayContaining([expect.objectContaining({ protocol: 'amqp', port: rabbit!.port })]),
    );
  },
);

maybe('when the cluster is stopped, then the next run starts it again with its data', async () => {
  const client = new Client({ connectionString: pg!.url });
  await client.connect();
  await client.query('CREATE DATABASE kept_between_runs');
  await client.end();
  await pg!.stop();
  pg = await ensurePrivatePostgres(join(dir, 'postgres'), (line) => logged.push(line));
  expect(logged.at(-1)).toMatch(/started the private cluster/);
  const again = new Client({ connectionString: pg.url });
  await again.connect();
  expect((await again.query("SELECT 1 FROM pg_database WHERE datname = 'kept_between_runs'")).rowCount).toBe(1);
  await again.end();
});
