/**
 * How `npm start` and `npm test` obtain PostgreSQL and RabbitMQ, decided for each server from
 * what the machine offers: the servers they are pointed at (DATABASE_URL, AMQP_URL, or the
 * defaults on localhost), Docker with the compose file's service, or the server installed here,
 * run as a private server under .data/.
 */
export type ServerKind = 'postgres' | 'rabbitmq';

/**
 * - `configured`: the configured (or default) server answers; use it.
 * - `unreachable`: a server was named (DATABASE_URL / AMQP_URL, or POSTBUS_SERVERS=configured)
 *   and does not answer: never replaced by another one behind the user's back.
 * - `docker`: `docker compose up -d <service>`, then the default URL.
 * - `private`: a server of this checkout under .data/ (started once, reused by later runs).
 * - `missing`: none of these; the command says what to install.
 */
export type ServerWay = 'configured' | 'unreachable' | 'docker' | 'private' | 'missing';

/** POSTBUS_SERVERS: `auto` (the order above), or one way only (`configured`: never start a server). */
export const SERVER_MODES = ['auto', 'configured', 'docker', 'private'] as const;
export type ServersMode = (typeof SERVER_MODES)[number];

export interface ServerProbes {
  /** The configured or default URL answers. */
  answers: boolean;
  /** The URL was set explicitly (DATABASE_URL / AMQP_URL). */
  named: boolean;
  /** A private server made by an earlier run is kept under .data/ (its data with it). */
  privateKept: boolean;
  /** `docker info` succeeds and `docker compose` is there. */
  docker: boolean;
  /** The server's own programs are installed (initdb and pg_ctl; rabbitmq-server and rabbitmqctl). */
  installed: boolean;
}

/** The way for one server; a mode other than `auto` is that way only, whatever else answers. */
export function chooseServerWay(probes: ServerProbes, mode: ServersMode = 'auto'): ServerWay {
  if (mode === 'docker') return probes.docker ? 'docker' : 'missing';
  if (mode === 'private') return probes.installed ? 'private' : 'missing';
  if (probes.answers) return 'configured';
  if (probes.named || mode === 'configured') return 'unreachable';
  // A private server of an earlier run holds that run's data: keep using it.
  if (probes.privateKept && probes.installed) return 'private';
  if (probes.docker) return 'docker';
  if (probes.installed) return 'private';
  return 'missing';
}

const NAMES: Record<ServerKind, { title: string; variable: string; debian: string; brew: string; compose: string }> = {
  postgres: {
    title: 'PostgreSQL',
    variable: 'DATABASE_URL',
    debian: 'postgresql',
    brew: 'postgresql@15',
    compose: 'postgres',
  },
  rabbitmq: {
    title: 'RabbitMQ',
    variable: 'AMQP_URL',
    debian: 'rabbitmq-server',
    brew: 'rabbitmq',
    compose: 'rabbitmq',
  },
};

export interface ServerDecision {
  kind: ServerKind;
  way: ServerWay;
  /** The URL that was probed, without its password. */
  url: string;
}

/**
 * One message for every server that cannot be had (`unreachable` or `missing`), with the exact
 * commands that fix it; undefined when every server can be had.
 */
export function explainUnavailable(decisions: ServerDecision[], mode: ServersMode = 'auto'): string | undefined {
  const lines: string[] = [];
  for (const d of decisions.filter((x) => x.way === 'unreachable')) {
    const { title, variable } = NAMES[d.kind];
    lines.push(
      `${title} does not answer at ${d.url} (${mode === 'configured' ? 'POSTBUS_SERVERS=configured' : variable}). Start it, or unset ${variable} to let npm start and npm test run one of their own.`,
    );
  }
  const missing = decisions.filter((x) => x.way === 'missing').map((x) => NAMES[x.kind]);
  if (missing.length) {
    const titles = missing.map((n) => n.title).join(' and ');
    const why =
      mode === 'docker'
        ? 'Docker is not available (docker info fails)'
        : mode === 'private'
          ? `${titles} ${missing.length > 1 ? 'are' : 'is'} not installed`
          : `nothing answers at ${decisions
              .filter((x) => x.way === 'missing')
              .map((x) => x.url)
              .join(
                ' or ',
              )}, Docker is not available, and ${titles} ${missing.length > 1 ? 'are' : 'is'} not installed`;
    lines.push(
      `${titles} ${missing.length > 1 ? 'are' : 'is'} needed: ${why}. Install ${missing.length > 1 ? 'them' : 'it'} and run the command again (it starts ${missing.length > 1 ? 'them' : 'it'} itself, under .data/):`,
      `  Debian/Ubuntu:  sudo apt-get install ${missing.map((n) => n.debian).join(' ')}`,
      `  macOS:          brew install ${missing.map((n) => n.brew).join(' ')}`,
      `or start Docker (docker compose up -d ${missing.map((n) => n.compose).join(' ')}), or point ${missing.map((n) => n.variable).join(' / ')} at running servers.`,
    );
  }
  return lines.length ? lines.join('\n') : undefined;
}
