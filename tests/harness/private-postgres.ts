import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = promisify(execFile);
const PG_BIN_DIRS = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'];

/** The directory holding initdb and pg_ctl, or undefined when PostgreSQL's server binaries are absent. */
export function findPgBin(): string | undefined {
  return PG_BIN_DIRS.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/**
 * A PostgreSQL cluster of its own in a temporary directory, on a port of its own: it can be
 * restarted without disturbing anything else on the machine. PostgreSQL refuses to run as
 * root, so under root the cluster belongs to the `postgres` user.
 */
export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
    private readonly runAs: string | undefined,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(port: number): Promise<PrivatePostgres> {
    const bin = findPgBin();
    if (!bin) throw new Error(`PostgreSQL's server binaries (initdb, pg_ctl) were not found in ${PG_BIN_DIRS.join(' or ')}: install postgresql-15 (Debian: apt-get install postgresql-15).`);
    const root = process.getuid?.() === 0;
    const dir = mkdtempSync(join(tmpdir(), 'postbus-faults-pg-'));
    if (root) {
      const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      if (ids.status !== 0) throw new Error('Running as root, the private PostgreSQL needs the system user "postgres" (PostgreSQL refuses to run as root).');
      chownSync(dir, Number(ids.stdout.trim()), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()));
    }
    const pg = new PrivatePostgres(bin, dir, port, root ? 'postgres' : undefined);
    await pg.run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    return pg;
  }

  start(): Promise<void> {
    return this.pgCtl('start');
  }

  /** `fast` disconnects every client and shuts down cleanly; `immediate` is a crash (recovery at the next start). */
  stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    return this.pgCtl('stop', ['-m', mode]);
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Ends the server at once by its pid and removes its files: for a harness that is exiting. */
  killNow(): void {
    try {
      process.kill(Number(readFileSync(join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGQUIT');
    } catch {
      // not running
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private pgCtl(action: string, extra: string[] = []): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB`;
    return this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-l', join(this.dir, 'server.log'), '-w', '-t', '60', '-o', options, ...extra, action]);
  }

  private async run(tool: string, args: string[]): Promise<void> {
    const cmd = join(this.bin, tool);
    const [file, argv] = this.runAs ? ['runuser', ['-u', this.runAs, '--', cmd, ...args]] : [cmd, args];
    try {
      await run(file, argv, { cwd: this.dir, timeout: 120_000 });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${e.stderr || e.stdout || (err as Error).message}`);
    }
  }
}
