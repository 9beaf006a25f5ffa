import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_LOADER } from '../service-node-options';
import { explainExit } from './start-failure';

export interface ServiceLaunch {
  name: string;
  /** Path of the entry point under the repository, e.g. services/posts/src/main.ts. */
  entry: string;
  env: Record<string, string>;
}

export interface ServiceGroupOptions {
  /** The repository: entries are resolved and processes run there. */
  root: string;
  /** Copy each process's output to this one's (npm start); the end of it is kept either way. */
  echo?: boolean;
  /** How long a stopped process may drain before it is killed. */
  graceMs?: number;
}

interface Member {
  name: string;
  proc: ChildProcess;
  output: string;
  exited: Promise<void>;
}

const KEPT_OUTPUT = 20_000;

/**
 * The processes of one system start (`npm start`): all of them stop together. A service that
 * exits on its own, or a system that does not come up, stops every other one, so a failed
 * start leaves nothing running; the reason names what failed (a taken port and its holder).
 */
export class ServiceGroup {
  private readonly members: Member[] = [];
  private stopping = false;
  private rejectCrashed!: (err: Error) => void;
  /** Rejects with the reason when a service exits without being stopped. */
  readonly crashed = new Promise<never>((_resolve, reject) => (this.rejectCrashed = reject));

  constructor(private readonly opts: ServiceGroupOptions) {
    this.crashed.catch(() => undefined); // read by whoever waits on it; never an unhandled rejection
  }

  /** Every process started, running or not. */
  get pids(): number[] {
    return this.members.map((m) => m.proc.pid).filter((pid): pid is number => pid !== undefined);
  }

  /**
   * Starts every service, then waits for `ready` (which should give up when `signal` aborts).
   * When a service exits first or `ready` fails, every process is stopped before the reason is thrown.
   */
  async start(services: ServiceLaunch[], ready: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const abort = new AbortController();
    try {
      for (const s of services) this.spawn(s);
      await Promise.race([ready(abort.signal), this.crashed]);
    } catch (err) {
      await this.stop();
      throw err;
    } finally {
      abort.abort();
    }
  }

  /** SIGTERM to every process still running, SIGKILL to those not gone within the grace period. */
  async stop(): Promise<void> {
    this.stopping = true;
    const graceMs = this.opts.graceMs ?? 10_000;
    await Promise.all(
      this.members.map(async (m) => {
        if (!running(m.proc)) return;
        m.proc.kill('SIGTERM');
        const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
        if ((await Promise.race([m.exited, timer])) === 'late') {
          m.proc.kill('SIGKILL');
          await m.exited;
        }
      }),
    );
  }

  private spawn(s: ServiceLaunch): void {
    const proc = spawn(process.execPath, [...SERVICE_LOADER, join(this.opts.root, s.entry)], {
      cwd: this.opts.root,
      env: s.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const member: Member = {
      name: s.name,
      proc,
      output: '',
      exited: new Promise((resolve) => proc.once('exit', () => resolve())),
    };
    const keep = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
      member.output = (member.output + chunk.toString()).slice(-KEPT_OUTPUT);
      if (this.opts.echo) to.write(chunk);
    };
    proc.stdout.on('data', keep(process.stdout));
    proc.stderr.on('data', keep(process.stderr));
    proc.once(
      'error',
      (err) => !this.stopping && this.rejectCrashed(new Error(`${s.name} could not be started: ${err.message}`)),
    );
    proc.once('exit', (code, signal) => {
      if (this.stopping) return;
      // The output may still be in the pipes when the process is gone: read it to its end first
      // (within a bound: a child of its own could keep them open).
      const drained = Promise.all([ended(proc.stdout), ended(proc.stderr)]);
      void Promise.race([drained, delay(2000)]).then(() =>
        this.rejectCrashed(new Error(explainExit(s.name, code, signal, member.output, { logShown: !!this.opts.echo }))),
      );
    });
    this.members.push(member);
  }
}

function running(proc: ChildProcess): boolean {
  return proc.pid !== undefined && proc.exitCode === null && proc.signalCode === null;
}

function ended(stream: NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean }): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
