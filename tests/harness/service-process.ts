import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describePortHolder } from '../../scripts/launch/port-holder';
import { portsInUse } from '../../scripts/launch/start-failure';
import { SERVICE_LOADER } from '../../scripts/service-node-options';

export const ROOT = join(__dirname, '..', '..');

export interface ServiceSpec {
  /** e.g. `posts`, `publisher#2`: what logs and tables call it. */
  name: string;
  /** Path of the entry point under the repository, e.g. services/posts/src/main.ts. */
  entry: string;
  env: Record<string, string>;
  /** Node flags before the TypeScript loader (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Answers true once the process serves (its /readyz, or a page of its own). */
  ready(): Promise<boolean>;
  /** Its operations listener (`/metrics`, `/readyz`), when it has one. */
  metricsUrl?: string;
}

/**
 * One service run as its own operating-system process, as `npm start` runs it: started,
 * waited for, signalled, killed and started again; its resident set read from /proc.
 */
export class ServiceProcess {
  /** Every process started by this harness process, so that none outlives it (killAllNow). */
  private static readonly started = new Set<ServiceProcess>();

  /** SIGKILLs every process this harness started that still runs. */
  static killAllNow(): void {
    for (const p of ServiceProcess.started) p.killNow();
  }

  private proc?: ChildProcess;
  /** Settles once the process has exited and its output has been read to the end. */
  private closed: Promise<void> = Promise.resolve();
  private output = '';
  private exits = 0;
  /** Called when the process ends without having been told to (a crash). */
  onCrash?: (name: string, code: number | null, signal: string | null, tail: string) => void;
  private expectingExit = false;

  constructor(readonly spec: ServiceSpec) {}

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.proc?.exitCode === null && this.proc.signalCode === null ? this.proc.pid : undefined;
  }

  get running(): boolean {
    return this.pid !== undefined;
  }

  /** The last lines the process wrote (stdout and stderr together). */
  tail(chars = 3000): string {
    return this.output.slice(-chars);
  }

  start(): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.expectingExit = false;
    const proc = spawn(
      process.execPath,
      [...(this.spec.nodeArgs ?? []), ...SERVICE_LOADER, join(ROOT, this.spec.entry)],
      {
        cwd: ROOT,
        env: { ...process.env, ...this.spec.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
      if (this.output.length > 200_000) this.output = this.output.slice(-50_000);
      if (process.env.HARNESS_VERBOSE) process.stderr.write(`[${this.name}] ${chunk.toString()}`);
    };
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
    proc.once('exit', (code, signal) => {
      this.exits++;
      if (!this.expectingExit) this.onCrash?.(this.name, code, signal, this.tail());
    });
    this.closed = new Promise((resolve) => proc.once('close', () => resolve()));
    this.proc = proc;
    ServiceProcess.started.add(this);
  }

  /** Resolves once `ready()` answers true; fails early with the log tail when the process exits. */
  async waitReady(timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) {
        await Promise.race([this.closed, sleep(2000)]);
        // A taken port is named with the process holding it, while it still does.
        const taken = portsInUse(this.tail()).map(describePortHolder);
        throw new Error(
          `${this.name} exited before it was ready${taken.length ? ` (${taken.join('; ')})` : ''}:\n${this.tail()}`,
        );
      }
      if (await this.spec.ready().catch(() => false)) return;
      await sleep(150);
    }
    throw new Error(`${this.name} was not ready within ${timeoutMs} ms:\n${this.tail()}`);
  }

  /** SIGTERM (drain), then SIGKILL after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    await this.signal('SIGTERM', graceMs);
  }

  /** SIGKILL: the process dies mid-work, as a crashed or evicted one does. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL', 5000);
  }

  private async signal(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    const proc = this.proc;
    if (!proc || !this.running) return;
    this.expectingExit = true;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
    if ((await Promise.race([exited, timer])) === 'late') {
      proc.kill('SIGKILL');
      await exited;
    }
  }

  /** SIGKILL without waiting: for a harness that is exiting and must leave nothing behind. */
  killNow(): void {
    if (this.running) {
      this.expectingExit = true;
      this.proc!.kill('SIGKILL');
    }
  }

  /** Resident set in kB now (VmRSS) and its high-water mark (VmHWM); zeros once the process is gone. */
  memoryKb(): { rss: number; peak: number } {
    const pid = this.pid;
    if (!pid) return { rss: 0, peak: 0 };
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const field = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))?.[1] ?? 0);
      return { rss: field('VmRSS'), peak: field('VmHWM') };
    } catch {
      return { rss: 0, peak: 0 };
    }
  }

  /** CPU seconds (user + system) used so far, from /proc. */
  cpuSeconds(): number {
    const pid = this.pid;
    if (!pid) return 0;
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return 0;
    }
  }

  /** Write system calls made so far (`syscw` of /proc/<pid>/io): each one a message out of the process. */
  writeCalls(): number {
    const pid = this.pid;
    if (!pid) return 0;
    try {
      return Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A probe that is true once `url` answers 2xx. */
export function answers(url: string): () => Promise<boolean> {
  return async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.ok;
  };
}
