import { PLATFORMS } from '@postbus/contracts';
import type { LocalSystem } from '../harness/local-system';
import type { PrivatePostgres } from '../harness/private-postgres';
import type { PrivateRabbit } from '../harness/private-rabbitmq';
import { sleep } from '../harness/service-process';

export interface FaultContext {
  system: LocalSystem;
  pg: PrivatePostgres;
  rabbit: PrivateRabbit;
  log(message: string): void;
}

export interface Fault {
  /** When it starts, in ms after the first post is due. */
  atMs: number;
  name: string;
  inject(ctx: FaultContext): Promise<void>;
}

async function sandboxFaults(sandboxUrl: string, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sandboxUrl}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the sandbox refused a fault: ${res.status} ${await res.text()}`);
}

/** The faults of a run, one after the other while posts are being published. */
export const FAULTS: Fault[] = [
  {
    atMs: 5_000,
    name: 'SIGKILL a publisher, start it again',
    async inject({ system, log }) {
      const victim = system.of('publisher')[0];
      await victim.kill();
      log(`${victim.name} killed (SIGKILL); the other publisher carries on`);
      await sleep(3000);
      victim.start();
      await victim.waitReady();
      log(`${victim.name} started again`);
    },
  },
  {
    atMs: 15_000,
    name: 'restart RabbitMQ',
    async inject({ rabbit, log }) {
      await rabbit.stop();
      log('RabbitMQ stopped');
      await sleep(2000);
      await rabbit.start();
      log('RabbitMQ started again');
    },
  },
  {
    atMs: 30_000,
    name: 'restart PostgreSQL',
    async inject({ pg, log }) {
      await pg.stop('fast');
      log('PostgreSQL stopped');
      await sleep(3000);
      await pg.start();
      log('PostgreSQL started again');
    },
  },
  {
    atMs: 40_000,
    name: 'stop posts for 10 s while results arrive',
    async inject({ system, log }) {
      const posts = system.of('posts')[0];
      await posts.stop();
      log('posts stopped (SIGTERM)');
      await sleep(10_000);
      posts.start();
      await posts.waitReady();
      log('posts started again');
    },
  },
  {
    atMs: 58_000,
    name: 'the sandbox times out for 5 s',
    async inject({ system, log }) {
      // Publish calls go through but their answers are lost (the outcome-unknown case); every other call hangs untouched.
      for (const platform of PLATFORMS) {
        await sandboxFaults(system.sandboxUrl, { platform, mode: 'timeout', operation: 'publish', applied: true, count: 10_000 });
        await sandboxFaults(system.sandboxUrl, { platform, mode: 'timeout', operation: 'any', applied: false, count: 10_000 });
      }
      log('the sandbox stopped answering');
      await sleep(5000);
      for (const platform of PLATFORMS) await sandboxFaults(system.sandboxUrl, { platform, mode: 'none' });
      log('the sandbox answers again');
    },
  },
];
