import { createHash } from 'node:crypto';
import type { Request } from 'express';

/** A request's bearer credential and the SHA-256 of it, by which verdicts and counters know it (never by the token). */
export interface BearerCredential {
  token: string;
  digest: Buffer;
}

const credentials = new WeakMap<Request, BearerCredential | null>();

/** Reads only `Authorization: Bearer <key>`; keys never travel in URLs or bodies. */
export function bearerToken(req: Request): string | undefined {
  const header = req.header('authorization');
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** The request's bearer credential, hashed once however many checks (verdict, rate limits) ask for it. */
export function bearerCredential(req: Request): BearerCredential | undefined {
  const known = credentials.get(req);
  if (known !== undefined) return known ?? undefined;
  const token = bearerToken(req);
  const credential = token ? { token, digest: createHash('sha256').update(token).digest() } : null;
  credentials.set(req, credential);
  return credential ?? undefined;
}
