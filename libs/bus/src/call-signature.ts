import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Who may speak on the bus. Reaching the broker is not enough: every RPC request carries an
 * HMAC-SHA256 over its namespace, command, deadline and body (the caller's principal included),
 * made with a key only the services (BUS_PRINCIPAL_KEY) or only the operator (OPERATOR_KEY) hold.
 * A server refuses a request that neither key signed, and an operator command that the operator
 * key did not sign, before any handler runs.
 */
export interface BusKeys {
  /** BUS_PRINCIPAL_KEY: signs every call this process makes and checks every call it serves. */
  call?: string;
  /** OPERATOR_KEY held by an operator tool (CLI, seeding): its calls are signed as the operator's. */
  operator?: string;
  /** OPERATOR_KEY held by a service: checks the operator commands it serves (and never signs). */
  operatorCheck?: string;
}

/** Development keys: what `npm start` and the tests use; services refuse them in production. */
export const DEV_BUS_PRINCIPAL_KEY = 'postbus-development-bus-principal-key-do-not-deploy';
export const DEV_OPERATOR_KEY = 'postbus-development-operator-key-do-not-deploy';

/** A process that was given no keys: a development tool that may act as the operator. */
export const DEVELOPMENT_KEYS: BusKeys = {
  call: DEV_BUS_PRINCIPAL_KEY,
  operator: DEV_OPERATOR_KEY,
  operatorCheck: DEV_OPERATOR_KEY,
};

export const CALL_SIGNATURE_HEADER = 'x-call-signature';
export const OPERATOR_SIGNATURE_HEADER = 'x-operator-signature';

/** The furthest ahead a request's deadline may lie (the longest operator command waits ten minutes): bounds a replay. */
export const MAX_CALL_WINDOW_MS = 15 * 60_000;

export interface SignedPart {
  namespace: string;
  type: string;
  deadline: number;
  body: Buffer;
}

export function signCall(key: string, part: SignedPart): string {
  return createHmac('sha256', key)
    .update(`postbus-rpc-v1\n${part.namespace}\n${part.type}\n${part.deadline}\n`)
    .update(part.body)
    .digest('base64url');
}

/** The signature headers of a request, one per key this process signs with. */
export function signatureHeaders(keys: BusKeys, part: SignedPart): Record<string, string> {
  const headers: Record<string, string> = {};
  if (keys.call) headers[CALL_SIGNATURE_HEADER] = signCall(keys.call, part);
  if (keys.operator) headers[OPERATOR_SIGNATURE_HEADER] = signCall(keys.operator, part);
  return headers;
}

function matches(key: string | undefined, given: unknown, part: SignedPart): boolean {
  if (!key || typeof given !== 'string') return false;
  const want = Buffer.from(signCall(key, part));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
}

export type CallerCheck = { ok: true; operator: boolean } | { ok: false; reason: string };

/**
 * Who signed a request: a service (BUS_PRINCIPAL_KEY) or the operator (OPERATOR_KEY, which a
 * server knows only when it serves operator commands). An unsigned or altered request, or one
 * whose deadline is missing or implausibly far, is nobody's.
 */
export function checkCaller(
  keys: BusKeys,
  headers: Record<string, unknown>,
  part: Omit<SignedPart, 'deadline'>,
  now = Date.now(),
): CallerCheck {
  const deadline = Number(headers['x-deadline']);
  if (!Number.isSafeInteger(deadline) || deadline - now > MAX_CALL_WINDOW_MS)
    return { ok: false, reason: 'it has no plausible deadline' };
  const signed = { ...part, deadline };
  if (matches(keys.operatorCheck, headers[OPERATOR_SIGNATURE_HEADER], signed)) return { ok: true, operator: true };
  if (matches(keys.call, headers[CALL_SIGNATURE_HEADER], signed)) return { ok: true, operator: false };
  const unsigned = headers[CALL_SIGNATURE_HEADER] === undefined && headers[OPERATOR_SIGNATURE_HEADER] === undefined;
  return {
    ok: false,
    reason: unsigned
      ? 'it is not signed'
      : 'its signature does not match (another key, or an altered principal or input)',
  };
}

/** The keys of an operator tool (`pnpm postbus`, `npm start`'s seeding): OPERATOR_KEY from its environment, the development key without one. */
export function operatorToolKeys(env: Record<string, string | undefined>): BusKeys {
  return { operator: env.OPERATOR_KEY || DEV_OPERATOR_KEY };
}
