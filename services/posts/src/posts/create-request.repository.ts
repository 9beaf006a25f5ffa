import { AppError } from '@postbus/contracts';
import type { Database, SqlRunner } from '@postbus/kit';
import type { ReplayKey, StoredAnswer } from './create-requests';

/** Serializes the account's creates for the rest of the transaction (replays by externalId or Idempotency-Key). */
export async function lockAccount(m: SqlRunner, accountId: string): Promise<void> {
  await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [`posts:${accountId}`]);
}

/**
 * The original answer when one of the keys was used before with the same payload; a key used
 * with a different payload is a conflict (external_id_conflict / idempotency_conflict).
 */
export async function findReplay<A = StoredAnswer>(
  db: SqlRunner,
  accountId: string,
  keys: ReplayKey[],
  hash: string,
): Promise<{ answer: A; kind: ReplayKey[0] } | undefined> {
  for (const [kind, key] of keys) {
    const rows = await db.query<{ payload_hash: string; response: A }>(
      'SELECT payload_hash, response FROM create_requests WHERE account_id = $1 AND kind = $2 AND key = $3',
      [accountId, kind, key],
    );
    if (!rows.length) continue;
    if (rows[0].payload_hash !== hash) {
      throw kind === 'external'
        ? new AppError(
            'external_id_conflict',
            `externalId ${JSON.stringify(key)} was already used with a different payload.`,
          )
        : new AppError('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.');
    }
    return { answer: rows[0].response, kind };
  }
  return undefined;
}

export async function recordAnswer<A = StoredAnswer>(
  m: SqlRunner,
  accountId: string,
  keys: ReplayKey[],
  hash: string,
  answer: A,
): Promise<void> {
  for (const [kind, key] of keys) {
    await m.query(
      'INSERT INTO create_requests (account_id, kind, key, payload_hash, response) VALUES ($1, $2, $3, $4, $5::jsonb)',
      [accountId, kind, key, hash, JSON.stringify(answer)],
    );
  }
}

/** The create_requests rows of an answer, for a statement that stores them with the posts. */
export function answerRows<A = StoredAnswer>(keys: ReplayKey[], hash: string, answer: A) {
  return keys.map(([kind, key]) => ({ kind, key, payload_hash: hash, response: answer }));
}

/**
 * Drops the answers kept for RPC call ids older than a day (a request is never served after its
 * deadline, seconds); externalId and Idempotency-Key answers stay. Answers how many went.
 */
export async function forgetOldCalls(db: Database, batch: number): Promise<number> {
  const rows = await db.updateReturning<{ key: string }>(
    `DELETE FROM create_requests WHERE ctid IN (
       SELECT ctid FROM create_requests WHERE kind = 'call' AND created_at < now() - interval '1 day' LIMIT $1
     ) RETURNING key`,
    [batch],
  );
  return rows.length;
}
