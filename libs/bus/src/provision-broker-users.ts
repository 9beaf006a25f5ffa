import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'amqplib';
import {
  brokerDefinitions,
  BROKER_SERVICES,
  brokerUserOf,
  developmentBrokerPassword,
  amqpUrlAs,
  vhostOf,
  type BrokerDefinitions,
} from './broker-users';
import { redactUrl } from '@postbus/kit';

/** Hands the definitions to the broker; throws with the reason when it cannot. */
export type DefinitionsImporter = (definitions: BrokerDefinitions) => Promise<void>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Where Debian and RabbitMQ's own packages install it; otherwise the name, found on PATH by spawn. */
const RABBITMQCTL_PATHS = ['/usr/sbin/rabbitmqctl', '/usr/lib/rabbitmq/bin/rabbitmqctl'];

/** Imports definitions with `rabbitmqctl import_definitions` (the JSON on its standard input): one call for every user. */
export function importWithRabbitmqctl(): DefinitionsImporter {
  return (definitions) =>
    new Promise((resolve, reject) => {
      const bin = RABBITMQCTL_PATHS.find((file) => existsSync(file)) ?? 'rabbitmqctl';
      const child = spawn(bin, ['-q', 'import_definitions'], { timeout: 60_000 });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('error', (err) =>
        reject(
          new Error(
            (err as NodeJS.ErrnoException).code === 'ENOENT'
              ? 'rabbitmqctl is not installed here'
              : `rabbitmqctl: ${err.message}`,
          ),
        ),
      );
      child.on('close', (code) =>
        code === 0
          ? resolve()
          : reject(
              new Error(
                `rabbitmqctl import_definitions exited ${code}: ${output.trim().split('\n').slice(-3).join(' ')}`,
              ),
            ),
      );
      child.stdin.on('error', () => undefined);
      child.stdin.end(JSON.stringify(definitions));
    });
}

/** Creates the users through the management plugin's HTTP API (`managementUrl`, e.g. http://host:15672), as the administrator. */
export function importWithManagementApi(managementUrl: string, adminUrl: string): DefinitionsImporter {
  const admin = new URL(adminUrl);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(admin.username)}:${decodeURIComponent(admin.password)}`).toString('base64')}`;
  const put = async (path: string, body: unknown) => {
    const res = await fetch(new URL(path, managementUrl), {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`management API PUT ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  };
  return async ({ users, permissions }) => {
    for (const { name, password, tags } of users)
      await put(`/api/users/${encodeURIComponent(name)}`, { password, tags });
    for (const { user, vhost, ...grant } of permissions)
      await put(`/api/permissions/${encodeURIComponent(vhost)}/${encodeURIComponent(user)}`, grant);
  };
}

/**
 * The broker's own tools where they can reach it: `rabbitmqctl` when the broker runs on this
 * machine, else the management API on port 15672 of its host (docker compose's broker has it).
 */
function importOnBrokerOf(adminUrl: string): DefinitionsImporter {
  const host = new URL(adminUrl).hostname;
  const management = importWithManagementApi(`http://${host}:15672`, adminUrl);
  if (!LOOPBACK.has(host)) return management;
  const ctl = importWithRabbitmqctl();
  return async (definitions) => {
    try {
      await ctl(definitions);
    } catch (ctlErr) {
      await management(definitions).catch((apiErr: Error) => {
        throw new Error(`${(ctlErr as Error).message}; ${apiErr.message}`);
      });
    }
  };
}

/** Waits until every user logs in (an import may finish after rabbitmqctl returns). */
async function assertUsersLogIn(urls: Record<string, string>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    Object.values(urls).map(async (url) => {
      for (;;) {
        try {
          const c = await connect(url, { timeout: 10_000 });
          await c.close();
          return;
        } catch (err) {
          if (Date.now() > deadline) throw new Error(`${redactUrl(url)} cannot log in: ${(err as Error).message}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    }),
  );
}

/**
 * Run with the administrator's AMQP URL (`npm start`, the tests once per run, the fault
 * harness): gives each service a broker user of its own, limited to its own queues (see
 * brokerPermissionsOf), and answers each service's AMQP URL. Idempotent: users that exist get
 * the password and permissions again. Passwords: the development ones unless given.
 */
export async function provisionBrokerUsers(
  adminUrl: string,
  opts: {
    services?: readonly string[];
    passwords?: Record<string, string>;
    namespace?: string;
    importDefinitions?: DefinitionsImporter;
  } = {},
): Promise<Record<string, string>> {
  const services = opts.services ?? BROKER_SERVICES;
  const passwords = Object.fromEntries(
    services.map((s) => [s, opts.passwords?.[s] ?? developmentBrokerPassword(adminUrl, s)]),
  );
  const definitions = brokerDefinitions(passwords, { vhost: vhostOf(adminUrl), namespace: opts.namespace });
  try {
    await (opts.importDefinitions ?? importOnBrokerOf(adminUrl))(definitions);
  } catch (err) {
    throw new Error(
      `Could not create the services' RabbitMQ users (${definitions.users.map((u) => u.name).join(', ')}) on ${redactUrl(adminUrl)}: ${(err as Error).message}. Run this as a user that may run rabbitmqctl (root or rabbitmq), or enable the management plugin (rabbitmq-plugins enable rabbitmq_management).`,
    );
  }
  const urls = Object.fromEntries(services.map((s) => [s, amqpUrlAs(adminUrl, brokerUserOf(s), passwords[s])]));
  await assertUsersLogIn(urls);
  return urls;
}
