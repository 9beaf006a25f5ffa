import { createHash } from 'node:crypto';

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

export function replayKeys(externalId: string | undefined, idempotencyKey: string | undefined): ReplayKey[] {
  const keys: ReplayKey[] = [];
  if (externalId) keys.push(['external', externalId]);
  if (idempotencyKey) keys.push(['idempotency', idempotencyKey]);
  return keys;
}

/** A hash of the payload that ignores key order. */
export function payloadHash(payload: unknown): string {
  return createHash('sha256').update(stableStringify(payload)).digest('hex');
}

function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
