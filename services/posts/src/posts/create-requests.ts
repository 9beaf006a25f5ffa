import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AppError } from '@postbus/contracts';

/** What an earlier create answered, kept per externalId, per Idempotency-Key and per RPC call. */
export interface StoredAnswer {
  postIds: string[];
  status: string;
  scheduledTime: string | null;
  /** A queued create: the slot each post took. */
  slots?: { postId: string; profileId: string; scheduledTime: string }[];
}
/** `call`: the RPC's call id, the same when the broker redelivers a request whose replica died before answering. */
export type ReplayKey = ['external' | 'idempotency' | 'call', string];

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<any>;
}

export function replayKeys(externalId: string | undefined, idempotencyKey: string | undefined): ReplayKey[] {
  const keys: ReplayKey[] = [];
  if (externalId) keys.push(['external', externalId]);
  if (idempotencyKey) keys.push(['idempotency', idempotencyKey]);
  return keys;
}

/**
 * The original answer when one of the keys was used before with the same payload; a key used
 * with a different payload is a conflict (external_id_conflict / idempotency_conflict).
 */
export async function findReplay(db: Queryable, accountId: string, keys: ReplayKey[], hash: string): Promise<{ answer: StoredAnswer; kind: ReplayKey[0] } | undefined> {
  for (const [kind, key] of keys) {
    const rows: { payload_hash: string; response: StoredAnswer }[] = await db.query('SELECT payload_hash, response FROM create_requests WHERE account_id = $1 AND kind = $2 AND key = $3', [accountId, kind, key]);
    if (!rows.length) continue;
    if (rows[0].payload_hash !== hash) {
      throw kind === 'external'
        ? new AppError('external_id_conflict', `externalId ${JSON.stringify(key)} was already used with a different payload.`)
        : new AppError('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.');
    }
    return { answer: rows[0].response, kind };
  }
  return undefined;
}

export async function recordAnswer(m: EntityManager, accountId: string, keys: ReplayKey[], hash: string, answer: StoredAnswer): Promise<void> {
  // A request is never served after its deadline (seconds), so call ids older than a day can go.
  if (keys.some(([kind]) => kind === 'call')) await m.query(`DELETE FROM create_requests WHERE account_id = $1 AND kind = 'call' AND created_at < now() - interval '1 day'`, [accountId]);
  for (const [kind, key] of keys) {
    await m.query('INSERT INTO create_requests (account_id, kind, key, payload_hash, response) VALUES ($1, $2, $3, $4, $5::jsonb)', [accountId, kind, key, hash, JSON.stringify(answer)]);
  }
}

/** A hash of the payload that ignores key order. */
export function payloadHash(payload: unknown): string {
  return createHash('sha256').update(stableStringify(payload)).digest('hex');
}

function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
