import { PLATFORMS } from '@postbus/contracts';
import type { LocalSystem } from '../harness/local-system';
import type { PrivatePostgres } from '../../scripts/launch/private-postgres';
import type { PrivateRabbit } from '../../scripts/launch/private-rabbitmq';
import { sleep } from '../harness/service-process';
import { childrenNamed } from './renditions';

export interface FaultContext {
  system: LocalSystem;
  pg: PrivatePostgres;
  rabbit: PrivateRabbit;
  log: (message: string) => void;
  /** Creates the posts held back for the transcoder fault (their renditions are requested then); answers how many. */
  createHeldPosts: () => Promise<number>;
}

/** What a fault found, beyond having struck: a note for the report, or that it could not do what it is for. */
export interface FaultNote {
  note?: string;
  missed?: boolean;
}

export interface Fault {
  /** When it starts, in ms after the first post is due. */
  atMs: number;
  name: string;
  inject(ctx: FaultContext): Promise<FaultNote | void>;
}

async function sandboxFaults(sandboxUrl: string, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sandboxUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
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
    atMs: 35_000,
    name: 'SIGKILL the transcoder while ffmpeg makes a rendition, start it again',
    async inject({ system, log, createHeldPosts }) {
      const victim = system.of('transcoder')[0];
      const held = await createHeldPosts();
      log(`${held} posts with normalize created; waiting for the transcoder to run ffmpeg`);
      // As a container killed whole: the service and the ffmpeg it runs.
      const deadline = Date.now() + 30_000;
      let ffmpeg: number[] = [];
      while (!ffmpeg.length && victim.pid && Date.now() < deadline) {
        ffmpeg = childrenNamed(victim.pid, 'ffmpeg');
        if (!ffmpeg.length) await sleep(20);
      }
      await victim.kill();
      for (const pid of ffmpeg) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // it had ended
        }
      }
      log(
        ffmpeg.length
          ? `${victim.name} killed (SIGKILL) with its ffmpeg mid-rendition`
          : `${victim.name} killed (SIGKILL), but ffmpeg was never seen running`,
      );
      await sleep(2000);
      victim.start();
      // It becomes ready while the next fault strikes; a start that fails is a crash the run reports.
      void victim.waitReady().then(
        () => log(`${victim.name} started again`),
        () => undefined,
      );
      return ffmpeg.length
        ? { note: `${held} posts; ffmpeg killed mid-rendition` }
        : { note: `${held} posts; ffmpeg never seen running`, missed: true };
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
        await sandboxFaults(system.sandboxUrl, {
          platform,
          mode: 'timeout',
          operation: 'publish',
          applied: true,
          count: 10_000,
        });
        await sandboxFaults(system.sandboxUrl, {
          platform,
          mode: 'timeout',
          operation: 'any',
          applied: false,
          count: 10_000,
        });
      }
      log('the sandbox stopped answering');
      await sleep(5000);
      for (const platform of PLATFORMS) await sandboxFaults(system.sandboxUrl, { platform, mode: 'none' });
      log('the sandbox answers again');
    },
  },
];
