import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { ERROR_STATUS, Routes, type RouteDef } from '@postbus/contracts';
import type { SeededAccount } from '@postbus/testing';

/** Every REST route of the contracts, so a route added later is probed without touching these tests. */
export const ROUTES = Object.values(Routes) as RouteDef[];
/** The routes whose body and query are JSON (the multipart upload is streamed to media and has tests of its own). */
export const JSON_ROUTES = ROUTES.filter((r) => !r.proxied);

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** One request as a client sends it: JSON body when given, key as a bearer token. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${baseUrl}${path}`, { method: method.toUpperCase(), headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A refusal as the contract has it: `{ error, code }` (maybe `details`), the status the code maps to. */
export function isCodedRefusal(a: Answer): boolean {
  const b = a.body;
  return (
    a.status >= 400 &&
    a.status < 500 &&
    !!b &&
    typeof b === 'object' &&
    typeof b.error === 'string' &&
    typeof b.code === 'string' &&
    (ERROR_STATUS as Record<string, number>)[b.code] === a.status
  );
}

export const pathParams = (route: RouteDef) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
export const fillPath = (route: RouteDef, values: Record<string, string>) =>
  route.path.replace(/\{(\w+)\}/g, (_m, p: string) => encodeURIComponent(values[p] ?? ''));

const KIND_PREFIX: Record<string, string> = {
  posts: 'pst',
  media: 'med',
  connections: 'prf',
  requests: 'cnr',
  webhooks: 'whk',
  deliveries: 'msg',
};

/** The id prefix a path parameter refers to, from the path segment before it (…/posts/{id} → pst). */
export function prefixOfParam(route: RouteDef, param: string): string | undefined {
  const segments = route.path.split('/');
  return KIND_PREFIX[segments[segments.indexOf(`{${param}}`) - 1]];
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** An id of the right shape that names nothing. */
export const missingId = (prefix = 'pst') =>
  `${prefix}_${Array.from(randomBytes(20), (b) => ALPHABET[b % 62]).join('')}`;

/** Ids of the resources an answer names, by prefix (`pst_…`, `med_…`). */
export function collectIds(pool: Map<string, string[]>, text: string): void {
  for (const id of text.match(/\b[a-z]{2,5}_[0-9A-Za-z]{16,32}\b/g) ?? []) {
    const prefix = id.slice(0, id.indexOf('_'));
    const ids = pool.get(prefix) ?? [];
    if (!ids.includes(id)) pool.set(prefix, [...ids, id]);
  }
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

/** A one-pixel PNG uploaded through the gateway (`POST /api/v1/media`, multipart), the key as a bearer token when given. */
export async function uploadPng(baseUrl: string, key: string | undefined): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'probe.png');
  const res = await fetch(`${baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text || 'null'), text };
}

/**
 * Gives an account one of each thing the routes name (a scheduled post, a draft, a webhook, a
 * connection request, an upload) and collects their ids and its profiles' into the pool, so path
 * parameters can hit real rows.
 */
export async function seedOneOfEach(
  baseUrl: string,
  account: SeededAccount,
  pool: Map<string, string[]>,
): Promise<void> {
  const key = account.apiKey;
  collectIds(pool, JSON.stringify(account.profiles));
  const made = [
    await call(baseUrl, 'post', '/api/v1/posts', {
      key,
      body: { platforms: ['threads'], caption: 'scheduled', scheduledTime: inDays(3) },
    }),
    await call(baseUrl, 'post', '/api/v1/posts/drafts', { key, body: { platforms: ['threads'], caption: 'draft' } }),
    await call(baseUrl, 'post', '/api/v1/webhooks', {
      key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['post.published'] },
    }),
    await call(baseUrl, 'post', '/api/v1/connections', { key, body: { platform: 'threads' } }),
    await uploadPng(baseUrl, key),
  ];
  for (const answer of made) collectIds(pool, answer.text);
}

/** Columns that move by themselves (a key's last use, heartbeats), left out of the fingerprint. */
const VOLATILE_COLUMNS = ['last_used_at', 'heartbeat_at'];
/**
 * Tables that move by themselves: heartbeats, rate-limit windows, and the profile facts posts
 * copies in the background from connections' events (a profile seeded by the test lands there
 * whenever its event arrives, not because of the request under test).
 */
const VOLATILE_TABLES = new Set(['publisher.workers', 'gateway.rate_limits', 'posts.profile_facts']);

const isOutbox = (table: string): boolean => table.endsWith('.outbox');

/**
 * A hash of every row of every table of the system's database (all services' schemas), by
 * table: two fingerprints that are equal mean nothing was written in between.
 */
export class DatabaseFingerprint {
  private tables?: string[];

  constructor(private readonly db: Client) {}

  static async open(databaseUrl: string): Promise<DatabaseFingerprint> {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    return new DatabaseFingerprint(db);
  }

  async take(): Promise<Map<string, string>> {
    // Tables are listed again each time: a service may have created one since.
    const { rows } = await this.db.query(
      `SELECT table_schema || '.' || table_name AS t FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema', 'public') AND table_name NOT IN ('migrations', 'typeorm_metadata')`,
    );
    this.tables = rows.map((r: { t: string }) => r.t).filter((t: string) => !VOLATILE_TABLES.has(t));
    const drop = `'{${VOLATILE_COLUMNS.join(',')}}'::text[]`;
    const parts = this.tables.map((t) => {
      const [schema, table] = t.split('.');
      // An outbox keeps the hash of each row: its relay empties it in the background, so only rows that appear count.
      const aggregate = isOutbox(t)
        ? `coalesce(string_agg(h, ',' ORDER BY h), '')`
        : `md5(coalesce(string_agg(h, ',' ORDER BY h), ''))`;
      return `SELECT '${t}' AS t, (SELECT ${aggregate} FROM (SELECT md5((to_jsonb(r) - ${drop})::text) AS h FROM "${schema}"."${table}" r) x) AS h`;
    });
    const result = await this.db.query(parts.join(' UNION ALL '));
    return new Map(result.rows.map((r: { t: string; h: string }) => [r.t, r.h]));
  }

  /** The tables whose rows differ between two fingerprints; an outbox counts only when a row appeared in it (rows leave it by themselves). */
  static changed(before: Map<string, string>, after: Map<string, string>): string[] {
    return [...after]
      .filter(([t, h]) => {
        if (!isOutbox(t)) return before.get(t) !== h;
        const had = new Set((before.get(t) ?? '').split(','));
        return h.split(',').some((row) => row && !had.has(row));
      })
      .map(([t]) => t);
  }

  close(): Promise<void> {
    return this.db.end();
  }
}

/** Everything the system holds: every table's rows and every stored object. */
export interface Holdings {
  tables: Map<string, string>;
  files: string[];
}

/** Reads what the system holds (its database and its media directory), to show a refusal left nothing behind. */
export class SystemHoldings {
  constructor(
    private readonly fingerprint: DatabaseFingerprint,
    private readonly mediaDir: string,
  ) {}

  static async open(databaseUrl: string, mediaDir: string): Promise<SystemHoldings> {
    return new SystemHoldings(await DatabaseFingerprint.open(databaseUrl), mediaDir);
  }

  async storedFiles(): Promise<string[]> {
    const entries = await readdir(this.mediaDir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath ?? (e as { path?: string }).path ?? '', e.name))
      .sort();
  }

  async take(): Promise<Holdings> {
    return { tables: await this.fingerprint.take(), files: await this.storedFiles() };
  }

  async expectNothingStoredSince(before: Holdings): Promise<void> {
    const after = await this.take();
    expect(DatabaseFingerprint.changed(before.tables, after.tables)).toEqual([]);
    expect(after.files).toEqual(before.files);
  }

  close(): Promise<void> {
    return this.fingerprint.close();
  }
}
