import { createHmac } from 'node:crypto';

/** The services that speak on the bus, each as a RabbitMQ user of its own. */
export const BROKER_SERVICES = [
  'auth',
  'automation',
  'connections',
  'gateway',
  'mcp',
  'media',
  'posts',
  'publisher',
  'transcoder',
  'webhooks',
] as const;

export function brokerUserOf(service: string): string {
  return `postbus_${service}`;
}

/** Regular expressions over resource names, as RabbitMQ's `set_permissions` takes them. */
export interface BrokerPermissions {
  configure: string;
  write: string;
  read: string;
}

/** What RabbitMQ's definitions import (`rabbitmqctl import_definitions`, `load_definitions`) takes: users and their permissions. */
export interface BrokerDefinitions {
  users: { name: string; password: string; tags: string }[];
  permissions: ({ user: string; vhost: string } & BrokerPermissions)[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Any namespace: on a development broker (npm start, the tests) one set of users serves every
 * namespace. The namespaces in use (`postbus`, the tests' `t.pb_…`) have no segment named like
 * a service, so a service still reaches only its own queues.
 */
const ANY_NAMESPACE = '[^.]+(?:\\.[^.]+)*';

/**
 * What a service's broker user may do, by name (see libs/bus for the names):
 * - configure (declare, delete) and read (consume, get, purge): its own queues — the work,
 *   retry, dead-letter, wait and per-process queues `<namespace>.<service>.…` and the queue its
 *   RPCs are served from, `<namespace>.rpc.<service>` — and the events exchange it declares;
 * - write (publish, bind a queue): the events exchange, its own queues, and the default exchange
 *   (`amq.default`), through which RPC requests, RPC replies and retries are sent. Writing there
 *   reaches any queue by name: who may *call* a service is settled by the call signatures
 *   (BUS_PRINCIPAL_KEY), not by the broker.
 * Replies come back over direct reply-to (`amq.rabbitmq.reply-to`), which needs no grant.
 * `namespace` pins the names to one BUS_NAMESPACE (deployments); without it, any namespace.
 */
export function brokerPermissionsOf(service: string, namespace?: string): BrokerPermissions {
  const ns = namespace === undefined ? ANY_NAMESPACE : escape(namespace);
  const own = `${ns}\\.${escape(service)}\\..+`;
  const rpc = `${ns}\\.rpc\\.${escape(service)}`;
  const events = `${ns}\\.events`;
  return {
    configure: `^(?:${own}|${rpc}|${events})$`,
    write: `^(?:${own}|${events}|amq\\.default)$`,
    read: `^(?:${own}|${rpc}|${events})$`,
  };
}

/** The virtual host an AMQP URL names ("/" when it names none). */
export function vhostOf(amqpUrl: string): string {
  const path = new URL(amqpUrl).pathname;
  return path.length > 1 ? decodeURIComponent(path.slice(1)) : '/';
}

/** `url` with another user and password: the AMQP URL a service gets for its own user. */
export function amqpUrlAs(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/**
 * A development password, derived from the administrator's credentials: every run on one broker
 * (npm start, each test run, side by side) arrives at the same one, and nobody without the
 * administrator's password can work it out.
 */
export function developmentBrokerPassword(adminUrl: string, service: string): string {
  const u = new URL(adminUrl);
  return createHmac('sha256', `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`)
    .update(`postbus broker user ${brokerUserOf(service)}`)
    .digest('hex')
    .slice(0, 32);
}

/** Each service's AMQP URL under its own user with its development password. */
export function developmentBrokerUrls(
  adminUrl: string,
  services: readonly string[] = BROKER_SERVICES,
): Record<string, string> {
  return Object.fromEntries(
    services.map((service) => [
      service,
      amqpUrlAs(adminUrl, brokerUserOf(service), developmentBrokerPassword(adminUrl, service)),
    ]),
  );
}

/** The users and permissions to import, for the given passwords (by service). */
export function brokerDefinitions(
  passwords: Record<string, string>,
  opts: { vhost?: string; namespace?: string } = {},
): BrokerDefinitions {
  const services = Object.keys(passwords);
  return {
    users: services.map((service) => ({ name: brokerUserOf(service), password: passwords[service], tags: '' })),
    permissions: services.map((service) => ({
      user: brokerUserOf(service),
      vhost: opts.vhost ?? '/',
      ...brokerPermissionsOf(service, opts.namespace),
    })),
  };
}
