import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';
/** Where Homebrew keeps postgresql@<version> (Apple silicon, then Intel). */
const BREW_OPT = ['/opt/homebrew/opt', '/usr/local/opt'];

/** The versions found in `parent` as `<prefix><version>`, newest first, each with its bin directory. */
function versionDirs(parent: string, prefix: string): string[] {
  const names = existsSync(parent) ? readdirSync(parent).filter((n) => new RegExp(`^${prefix}\\d+$`).test(n)) : [];
  return names
    .sort((a, b) => Number(b.slice(prefix.length)) - Number(a.slice(prefix.length)))
    .map((n) => join(parent, n, 'bin'));
}

/** Debian's server binaries (/usr/lib/postgresql/<version>/bin), then Homebrew's (postgresql@<version>/bin). */
function pgBinDirs(): string[] {
  return [...versionDirs(PG_ROOT, ''), ...BREW_OPT.flatMap((opt) => versionDirs(opt, 'postgresql@'))];
}

/** The directory holding initdb and pg_ctl, or undefined when PostgreSQL's server binaries are absent. */
export function findPgBin(): string | undefined {
  return pgBinDirs().find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/** PostgreSQL refuses to run as root: under root the cluster belongs to the system user `postgres`. */
function clusterOwner(): { user: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0)
    throw new Error(
      'Running as root, the private PostgreSQL needs the system user "postgres" (PostgreSQL refuses to run as root).',
    );
  return {
    user: 'postgres',
    uid: Number(uid.stdout.trim()),
    gid: Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()),
  };
}

/** Whether the user a cluster would run as may reach a directory made in `parent` (a checkout under /root is closed to `postgres`). */
export function clusterCanLiveUnder(parent: string): boolean {
  const owner = clusterOwner();
  if (!owner) return true;
  return spawnSync('runuser', ['-u', owner.user, '--', 'test', '-x', parent]).status === 0;
}

/**
 * A PostgreSQL cluster of its own, on a port of its own: it can be restarted without disturbing
 * anything else on the machine. In a temporary directory (the fault run), or in a directory kept
 * between runs (`npm start` and `npm test` on a machine without a server of their own).
 */
export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    private port_: number,
    private readonly runAs: string | undefined,
  ) {}

  get port(): number {
    return this.port_;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** A new cluster (initdb) in `opts.dir` (created), or in a new temporary directory. */
  static async create(port: number, opts: { dir?: string } = {}): Promise<PrivatePostgres> {
    const pg = PrivatePostgres.at(opts.dir ?? mkdtempSync(join(tmpdir(), 'postbus-faults-pg-')), port);
    await pg.run('initdb', ['-D', join(pg.dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    return pg;
  }

  /** The cluster in `dir`, made by an earlier `create` (see `initialised`), to be started on `port`. */
  static open(dir: string, port: number): PrivatePostgres {
    return PrivatePostgres.at(dir, port);
  }

  private static at(dir: string, port: number): PrivatePostgres {
    const bin = findPgBin();
    if (!bin)
      throw new Error(
        `PostgreSQL's server binaries (initdb, pg_ctl) were not found under ${PG_ROOT}/<version>/bin or Homebrew's postgresql@<version>: install PostgreSQL (Debian: apt-get install postgresql; macOS: brew install postgresql@15).`,
      );
    const owner = clusterOwner();
    mkdirSync(dir, { recursive: true });
    if (owner) chownSync(dir, owner.uid, owner.gid);
    return new PrivatePostgres(bin, dir, port, owner?.user);
  }

  /** Whether `dir` holds a cluster already. */
  static initialised(dir: string): boolean {
    return existsSync(join(dir, 'data', 'PG_VERSION'));
  }

  /** The port the cluster in `dir` is serving on, or undefined when it is not running. */
  static runningPort(dir: string): number | undefined {
    try {
      // postmaster.pid: pid, data directory, start time, port, … (while the server runs)
      const [pid, , , port] = readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n');
      process.kill(Number(pid), 0);
      return Number(port);
    } catch (err) {
      // EPERM: alive, owned by `postgres`
      if ((err as NodeJS.ErrnoException).code === 'EPERM')
        return Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[3]);
      return undefined;
    }
  }

  start(port = this.port): Promise<void> {
    this.port_ = port;
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
    return this.run('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      options,
      ...extra,
      action,
    ]);
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
