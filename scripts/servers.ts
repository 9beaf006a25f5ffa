/**
 * The servers `npm start` and `npm test` run on (scripts/launch/local-servers.ts):
 *
 *   pnpm servers up --for start|test   finds or brings them up; prints the variables to use as JSON
 *   pnpm servers status                what the private servers under .data/ are doing
 *   pnpm servers stop                  stops the private servers under .data/ (their data stays)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ensurePrivatePostgres,
  obtainServers,
  privateNodeName,
  privateServerDirs,
  ServersUnavailable,
} from './launch/local-servers';
import { PrivatePostgres } from './launch/private-postgres';
import { PrivateRabbit } from './launch/private-rabbitmq';

const root = join(__dirname, '..');
const log = (line: string) => console.error(line);

async function up(purpose: string | undefined): Promise<void> {
  if (purpose !== 'start' && purpose !== 'test') throw new Error('usage: servers up --for start|test');
  const { env } = await obtainServers({ root, purpose, log });
  process.stdout.write(`${JSON.stringify(env)}\n`);
}

function status(): void {
  const dirs = privateServerDirs(root);
  const pgPort = PrivatePostgres.runningPort(dirs.postgres);
  log(
    `PostgreSQL (${dirs.postgres}): ${!PrivatePostgres.initialised(dirs.postgres) ? 'none' : pgPort ? `running on port ${pgPort}` : 'stopped'}`,
  );
  const portsFile = join(dirs.rabbitmq, 'ports.json');
  const ports = existsSync(portsFile) ? (JSON.parse(readFileSync(portsFile, 'utf8')) as { port: number }) : undefined;
  log(
    `RabbitMQ (${privateNodeName(root)}, ${dirs.rabbitmq}): ${!ports ? 'none' : PrivateRabbit.runningPid(dirs.rabbitmq) ? `running on port ${ports.port}` : 'stopped'}`,
  );
}

async function stop(): Promise<void> {
  const dirs = privateServerDirs(root);
  if (PrivatePostgres.runningPort(dirs.postgres)) {
    await (await ensurePrivatePostgres(dirs.postgres, () => undefined)).stop();
    log('PostgreSQL: stopped.');
  }
  const portsFile = join(dirs.rabbitmq, 'ports.json');
  if (existsSync(portsFile) && PrivateRabbit.runningPid(dirs.rabbitmq)) {
    const { port, distPort } = JSON.parse(readFileSync(portsFile, 'utf8')) as { port: number; distPort: number };
    await PrivateRabbit.create(port, distPort, { dir: dirs.rabbitmq, node: privateNodeName(root) }).stop();
    log('RabbitMQ: stopped.');
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'up') return up(args[args.indexOf('--for') + 1]);
  if (command === 'status') return status();
  if (command === 'stop') return stop();
  throw new Error('usage: servers up --for start|test | status | stop');
}

main().catch((err: Error) => {
  console.error(err instanceof ServersUnavailable ? `\n✖ ${err.message}\n` : err.message);
  process.exit(1);
});
