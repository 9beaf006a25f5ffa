import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const exec = promisify(execFile);
const RABBIT_BIN_DIRS = ['/usr/lib/rabbitmq/bin', '/usr/sbin', '/usr/local/sbin', '/usr/local/bin'];

/** The directory holding rabbitmq-server and rabbitmqctl, or undefined when RabbitMQ is absent. */
export function findRabbitBin(): string | undefined {
  return RABBIT_BIN_DIRS.find((dir) => existsSync(join(dir, 'rabbitmq-server')) && existsSync(join(dir, 'rabbitmqctl')));
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

  static create(port: number, distPort: number): PrivateRabbit {
    const bin = findRabbitBin();
    if (!bin) throw new Error(`RabbitMQ was not found (rabbitmq-server and rabbitmqctl in ${RABBIT_BIN_DIRS.join(' or ')}): install rabbitmq-server 3.10 or later (Debian: apt-get install rabbitmq-server).`);
    const dir = mkdtempSync(join(tmpdir(), 'postbus-faults-rabbit-'));
    const node = `pbfaults${port}@localhost`;
    for (const sub of ['mnesia', 'log', 'home']) mkdirSync(join(dir, sub));
    writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
    writeFileSync(join(dir, 'rabbitmq-env.conf'), '');
    // Quorum queues want disk headroom; the alarm must not block publishers on a small CI disk.
    writeFileSync(join(dir, 'rabbitmq.conf'), `loopback_users = none\ndisk_free_limit.absolute = 50MB\n`);
    const env = {
      HOME: join(dir, 'home'),
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

  /** Starts the node and waits until the broker accepts connections. */
  async start(): Promise<void> {
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
