import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connect, type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import { createLogger } from '@postbus/kit';
import { BusConnection, type BusOptions } from '../src';
// The harness lives in libs/testing, which itself depends on @postbus/bus; import its plain
// modules by path instead of declaring a dependency cycle.
export { createTestEnv, type TestEnv } from '../../testing/src/test-env';
export { waitFor } from '../../testing/src/wait';

export const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const logger = createLogger('bus-test', process.env.TEST_LOG_LEVEL ?? 'silent');

export function randomNamespace(label: string): string {
  return `t.bus_${label}_${randomBytes(5).toString('hex')}`;
}

export function openTestBus(namespace: string, extra: Partial<BusOptions> = {}): Promise<BusConnection> {
  return BusConnection.open({ url: AMQP_URL, namespace, logger, ephemeral: true, ...extra });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A plain connection playing the operator: reads dead letters, counts queues, cleans up. */
export class Operator {
  private constructor(
    private readonly model: ChannelModel,
    readonly channel: Channel,
  ) {}

  static async open(): Promise<Operator> {
    const model = await connect(AMQP_URL);
    const channel = await model.createChannel();
    return new Operator(model, channel);
  }

  /** Polls `queue` until a message is there (or `timeoutMs` passes), acks and returns it. */
  async take(queue: string, timeoutMs = 5000): Promise<GetMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const msg = await this.channel.get(queue);
      if (msg) {
        this.channel.ack(msg);
        return msg;
      }
      if (Date.now() > deadline) throw new Error(`no message arrived in ${queue} within ${timeoutMs} ms`);
      await sleep(25);
    }
  }

  async depth(queue: string): Promise<number> {
    return (await this.channel.checkQueue(queue)).messageCount;
  }

  /** Deletes the namespace's queues and its events exchange (queues would expire anyway). */
  async cleanUp(queues: string[], exchanges: string[]): Promise<void> {
    for (const q of queues) await this.channel.deleteQueue(q).catch(() => undefined);
    for (const e of exchanges) await this.channel.deleteExchange(e).catch(() => undefined);
    await this.model.close().catch(() => undefined);
  }
}

const run = promisify(execFile);

/** True when this machine can administer the local broker (rabbitmqctl on PATH, enough rights). */
export async function canAdministerBroker(): Promise<boolean> {
  try {
    await run('rabbitmqctl', ['list_connections', 'name', '--quiet'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Force-closes exactly the broker connections that introduced themselves as `connectionName`. */
export async function forceCloseConnection(connectionName: string): Promise<number> {
  const { stdout } = await run(
    'rabbitmqctl',
    ['list_connections', 'pid', 'client_properties', '--quiet', '--no-table-headers'],
    { timeout: 10_000 },
  );
  const marker = `{"connection_name","${connectionName}"}`;
  const pids = stdout
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => line.split('\t')[0].trim());
  for (const pid of pids)
    await run('rabbitmqctl', ['close_connection', pid, 'test: forced close'], { timeout: 10_000 });
  return pids.length;
}
