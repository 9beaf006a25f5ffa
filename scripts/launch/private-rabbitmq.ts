import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const exec = promisify(execFile);
/** Debian's (unwrapped) tools first, then other packages' and Homebrew's. */
const RABBIT_BIN_DIRS = [
  '/usr/lib/rabbitmq/bin',
  '/usr/sbin',
  '/usr/local/sbin',
  '/usr/local/bin',
  '/opt/homebrew/sbin',
  '/opt/homebrew/opt/rabbitmq/sbin',
  '/usr/local/opt/rabbitmq/sbin',
];

/** The directory holding rabbitmq-server and rabbitmqctl, or undefined when RabbitMQ is absent. */
export function findRabbitBin(): string | undefined {
  return RABBIT_BIN_DIRS.find(
    (dir) => existsSync(join(dir, 'rabbitmq-server')) && existsSync(join(dir, 'rabbitmqctl')),
  );
}

/**
 * A RabbitMQ node of its own (its own name, ports, database, logs, cookie and configuration, no
 * plugins), so that restarting it disturbs nothing else on the machine.
 */
export class PrivateRabbit {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
    readonly node: string,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  /**
   * A node in `opts.dir` (created; kept between runs, its data too) named `opts.node`, or in a
   * new temporary directory. The Erlang cookie is the node's own, given to rabbitmqctl through
   * RABBITMQ_ERLANG_COOKIE (see cliEnv) so any rabbitmqctl on the machine can reach the node.
   */
  static create(port: number, distPort: number, opts: { dir?: string; node?: string } = {}): PrivateRabbit {
    const bin = findRabbitBin();
    if (!bin)
      throw new Error(
        `RabbitMQ was not found (rabbitmq-server and rabbitmqctl in ${RABBIT_BIN_DIRS.join(' or ')}): install rabbitmq-server 3.10 or later (Debian: apt-get install rabbitmq-server).`,
      );
    const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'postbus-faults-rabbit-'));
    const node = opts.node ?? `pbfaults${port}@localhost`;
    for (const sub of ['mnesia', 'log', 'home']) mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
    writeFileSync(join(dir, 'rabbitmq-env.conf'), '');
    // Quorum queues want disk headroom; the alarm must not block publishers on a small CI disk.
    writeFileSync(join(dir, 'rabbitmq.conf'), `loopback_users = none\ndisk_free_limit.absolute = 50MB\n`);
    const cookieFile = join(dir, 'home', '.erlang.cookie');
    if (!existsSync(cookieFile))
      writeFileSync(cookieFile, randomBytes(20).toString('hex').toUpperCase(), { mode: 0o400 });
    const env = {
      HOME: join(dir, 'home'),
      RABBITMQ_ERLANG_COOKIE: readFileSync(cookieFile, 'utf8').trim(),
      RABBITMQ_NODENAME: node,
      RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
      RABBITMQ_NODE_PORT: String(port),
      RABBITMQ_DIST_PORT: String(distPort),
      RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
      RABBITMQ_LOG_BASE: join(dir, 'log'),
      RABBITMQ_PID_FILE: join(dir, 'rabbit.pid'),
      RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
      RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
      RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf'),
      RABBITMQ_ADVANCED_CONFIG_FILE: join(dir, 'advanced.config'),
    };
    return new PrivateRabbit(bin, dir, port, node, env);
  }

  /** The pid of the node whose files are in `dir`, or undefined when it is not running. */
  static runningPid(dir: string): number | undefined {
    try {
      const pid = Number(readFileSync(join(dir, 'rabbit.pid'), 'utf8').trim());
      process.kill(pid, 0);
      return pid;
    } catch {
      return undefined;
    }
  }

  /**
   * What makes rabbitmqctl (any copy, Debian's wrapper too, which keeps the environment) talk to
   * this node rather than the machine's own: its name, and the cookie it authenticates with.
   */
  // https://www.rabbitmq.com/docs/cli#erlang-cookie (RABBITMQ_ERLANG_COOKIE: deprecated for nodes, still read by CLI tools)
  get cliEnv(): Record<string, string> {
    return { RABBITMQ_NODENAME: this.node, RABBITMQ_ERLANG_COOKIE: this.env.RABBITMQ_ERLANG_COOKIE };
  }

  /** Starts the node and waits until the broker accepts connections. */
  async start(): Promise<void> {
    // a pid file left by a node that was killed would name some other process
    rmSync(join(this.dir, 'rabbit.pid'), { force: true });
    await this.run('rabbitmq-server', ['-detached']);
    // `wait` follows the pid file the detached node writes, then the broker's start.
    await this.run('rabbitmqctl', ['-n', this.node, '--timeout', '120', 'wait', join(this.dir, 'rabbit.pid')], 150_000);
  }

  /** Imports users and permissions (the services' own broker users) into this node. */
  async importDefinitions(definitions: unknown): Promise<void> {
    const file = join(this.dir, 'definitions.json');
    writeFileSync(file, JSON.stringify(definitions), { mode: 0o600 });
    await this.run('rabbitmqctl', ['-n', this.node, 'import_definitions', file]);
  }

  /** Stops the whole node (the Erlang VM too), as a crash or a host restart would. */
  stop(): Promise<void> {
    return this.run('rabbitmqctl', ['-n', this.node, 'stop', join(this.dir, 'rabbit.pid')], 120_000);
  }

  async destroy(): Promise<void> {
    try {
      await this.stop();
    } catch {
      // not answering: end the node by its pid
      try {
        process.kill(Number(readFileSync(join(this.dir, 'rabbit.pid'), 'utf8').trim()), 'SIGKILL');
      } catch {
        // not running
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Ends the node at once by its pid and removes its files: for a harness that is exiting. */
  killNow(): void {
    try {
      process.kill(Number(readFileSync(join(this.dir, 'rabbit.pid'), 'utf8').trim()), 'SIGKILL');
    } catch {
      // not running
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async run(tool: string, args: string[], timeout = 60_000): Promise<void> {
    try {
      await exec(join(this.bin, tool), args, { env: { ...process.env, ...this.env }, cwd: this.dir, timeout });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${e.stderr || e.stdout || (err as Error).message}`);
    }
  }
}
