/**
 * Typed configuration from the environment. Each variable is declared once with its type,
 * default and a line of documentation; loading reports every bad variable at once.
 */
export interface VarSpec<T> {
  doc: string;
  default?: T;
  /** A secret: a value it refuses is not repeated in the error. */
  secret?: boolean;
  /** Parses the raw string or throws with a reason. */
  parse(raw: string): T;
}

type Specs = Record<string, VarSpec<unknown>>;
export type ConfigOf<S extends Specs> = { [K in keyof S]: S[K] extends VarSpec<infer T> ? T : never };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export function str(doc: string, def?: string): VarSpec<string> {
  return { doc, default: def, parse: (raw) => raw };
}

export function url(doc: string, def?: string): VarSpec<string> {
  return {
    doc,
    default: def,
    parse(raw) {
      new URL(raw); // throws on a malformed URL
      return raw.replace(/\/$/, '');
    },
  };
}

export function int(doc: string, def?: number, min = 0): VarSpec<number> {
  return {
    doc,
    default: def,
    parse(raw) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min) throw new Error(`expected an integer ≥ ${min}`);
      return n;
    },
  };
}

/**
 * Comma-separated positive whole milliseconds, e.g. retry delays `200, 1000,5000`. Each item is
 * digits only: an empty item, 0, a sign, a decimal, an exponent or hex is refused, not read as 0 or
 * as some other number.
 */
export function parseMsList(raw: string): number[] {
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => !/^\d+$/.test(s) || Number(s) < 1 || !Number.isSafeInteger(Number(s))))
    throw new Error('expected comma-separated positive milliseconds');
  return items.map(Number);
}

export function msList(doc: string, def: number[]): VarSpec<number[]> {
  return { doc, default: def, parse: parseMsList };
}

export function bool(doc: string, def?: boolean): VarSpec<boolean> {
  return {
    doc,
    default: def,
    parse(raw) {
      if (/^(1|true|yes|on)$/i.test(raw)) return true;
      if (/^(0|false|no|off)$/i.test(raw)) return false;
      throw new Error('expected true or false');
    },
  };
}

export function oneOf<T extends string>(doc: string, values: readonly T[], def?: T): VarSpec<T> {
  return {
    doc,
    default: def,
    parse(raw) {
      if (!values.includes(raw as T)) throw new Error(`expected one of ${values.join(', ')}`);
      return raw as T;
    },
  };
}

export function loadConfig<S extends Specs>(specs: S, env: Record<string, string | undefined>): ConfigOf<S> {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (spec.default === undefined) problems.push(`${name} is required (${spec.doc})`);
      else out[name] = spec.default;
      continue;
    }
    try {
      out[name] = spec.parse(raw);
    } catch (err) {
      problems.push(`${name}${spec.secret ? '' : `=${JSON.stringify(raw)}`}: ${(err as Error).message} (${spec.doc})`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return out as ConfigOf<S>;
}

/** The variables every service shares. */
export const commonVars = {
  DATABASE_URL: url('PostgreSQL connection URL', 'postgres://postgres@127.0.0.1:5432/postbus'),
  AMQP_URL: url('RabbitMQ connection URL', 'amqp://guest:guest@127.0.0.1:5672'),
  BUS_NAMESPACE: str('Prefix for every queue and exchange, so tenants and tests can share a broker', 'postbus'),
  LOG_LEVEL: oneOf('winston log level', ['error', 'warn', 'info', 'debug', 'silent'] as const, 'info'),
  RPC_TIMEOUT_MS: int('Deadline of an RPC call before it answers service_unavailable', 5000, 1),
};
