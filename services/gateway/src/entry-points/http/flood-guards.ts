import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { isAppError } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { bearerCredential, type BearerCredential } from '@postbus/service';
import { clientAddress } from './client-address';
import { refuseRequest, reportLimit, type BucketLimiter, type Verdict } from './rate-limit-buckets';
import type { ProxyRoute } from './proxy';

/**
 * The gateway's limits, all counted in the one shared table:
 * - `credential`: requests of one credential (a hash of its bearer token), on the JSON routes
 *   once verified and on the agent endpoint and the upload before they are streamed on;
 * - `address`: requests of one client address to the streamed paths (pages, OAuth, agent, upload);
 * - `attempts`: credential attempts of one address — sign-in, sign-up, client registration,
 *   token requests, consent, key exchange — and every bearer credential refused. An address over
 *   it is refused on those paths and on every request carrying a credential until its window
 *   ends, before auth is asked anything.
 */
export interface FloodGuards {
  credential: BucketLimiter;
  address: BucketLimiter;
  attempts: BucketLimiter;
  logger: Logger;
}

const MESSAGES = {
  credential: (limit: number) => `This key made more than ${limit} requests in a minute.`,
  address: (limit: number) => `This address made more than ${limit} requests in a minute.`,
  attempts: (limit: number) =>
    `This address made more than ${limit} sign-in, registration or token attempts, or sent keys that were refused.`,
};

/** The id a bearer credential is counted under: its hash (the one its verdict is cached under), never the token itself. */
export function credentialId(credential: BearerCredential): string {
  return credential.digest.toString('base64url').slice(0, 32);
}

type Kind = keyof typeof MESSAGES;

/** Counts one request; answers false once it has refused it. A counter that cannot be reached lets the request through: a database hiccup should not take the API down with it. */
async function count(guards: FloodGuards, kind: Kind, id: string, req: Request, res: Response): Promise<boolean> {
  const limiter = guards[kind];
  if (!limiter.enabled) return true;
  let verdict: Verdict;
  try {
    verdict = await limiter.hit(id);
  } catch (err) {
    guards.logger.warn('rate limit counter unavailable; request let through', {
      bucket: limiter.bucket.name,
      err: (err as Error).message,
    });
    return true;
  }
  if (verdict.over) {
    refuseRequest(req, res, verdict, MESSAGES[kind](verdict.limit));
    return false;
  }
  reportLimit(res, verdict);
  return true;
}

/** Refuses at once an address this replica saw go over its attempts; counts nothing. */
function refusedAttempts(guards: FloodGuards, address: string, req: Request, res: Response): boolean {
  const standing = guards.attempts.enabled ? guards.attempts.refusal(address) : undefined;
  if (!standing) return false;
  refuseRequest(req, res, standing, MESSAGES.attempts(standing.limit));
  return true;
}

/** A refused bearer credential counts as an attempt of its address (the answer is already on its way). */
function countRefusedCredential(guards: FloodGuards, address: string, res: Response): void {
  if (!guards.attempts.enabled) return;
  res.once('finish', () => {
    if (res.statusCode !== 401) return;
    guards.attempts
      .hit(address)
      .catch((err: Error) =>
        guards.logger.warn('rate limit counter unavailable', { bucket: guards.attempts.bucket.name, err: err.message }),
      );
  });
}

/** Runs in front of a streamed path, according to what its route in the proxy table says it is. */
export function proxyGuard(route: ProxyRoute, guards: FloodGuards): RequestHandler {
  return (req, res, next) => {
    if (route.unlimited) return next();
    const address = clientAddress(req);
    const attempt = route.attempts?.includes(req.method) ?? false;
    const token = route.perCredential ? bearerCredential(req) : undefined;
    if ((attempt || token) && refusedAttempts(guards, address, req, res)) return;
    (async () => {
      if (!(await count(guards, 'address', address, req, res))) return;
      if (attempt && !(await count(guards, 'attempts', address, req, res))) return;
      if (token) {
        if (!(await count(guards, 'credential', credentialId(token), req, res))) return;
        if (!attempt) countRefusedCredential(guards, address, res);
      }
      next();
    })().catch(next);
  };
}

/** JSON routes, before authentication: an address over its attempts is refused before auth is asked about its key. */
export function refusedAddressFirst(guards: FloodGuards): RequestHandler {
  return (req, res, next) => {
    if (bearerCredential(req) && refusedAttempts(guards, clientAddress(req), req, res)) return;
    next();
  };
}

/** JSON routes, when authentication failed: a key auth refused counts as an attempt of the address; past the limit the answer is 429. */
export function countRefusedKey(guards: FloodGuards): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (!isAppError(err) || err.code !== 'invalid_api_key') return next(err);
    count(guards, 'attempts', clientAddress(req), req, res).then((through) => through && next(err), next);
  };
}

/** JSON routes, once the key is known: its own allowance, shared with its requests to the agent endpoint and the upload. */
export function credentialLimit(guards: FloodGuards): RequestHandler {
  return (req, res, next) => {
    const token = bearerCredential(req);
    if (!token) return next();
    count(guards, 'credential', credentialId(token), req, res).then((through) => through && next(), next);
  };
}
