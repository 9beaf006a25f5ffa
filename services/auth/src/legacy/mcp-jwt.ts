import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface McpJwtClaims {
  userId: string;
  accountId: string;
  keyId: string;
}

export type McpJwtCheck = { ok: true; claims: McpJwtClaims } | { ok: false; reason: string };

/** A token that has the shape of a JWT (three base64url parts). */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

/**
 * The short-lived JWTs of the deprecated API-key exchanges: HS256 under AUTH_JWT_SECRET, issued
 * by {base_url} for the agent endpoint (its audience), naming the key they were exchanged for.
 */
export class McpJwt {
  private readonly key: Uint8Array;

  constructor(
    secretBase64: string,
    private readonly issuer: string,
    private readonly audience: string,
    readonly ttlSeconds: number,
  ) {
    this.key = new Uint8Array(Buffer.from(secretBase64, 'base64'));
  }

  async sign(claims: McpJwtClaims, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({ acc: claims.accountId, key_id: claims.keyId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(claims.userId)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** Checks signature, issuer, expiry and that `resource` is the token's audience. */
  async verify(token: string, resource: string, now = new Date()): Promise<McpJwtCheck> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: this.issuer,
        audience: resource,
        algorithms: ['HS256'],
        currentDate: now,
      });
      if (typeof payload.sub !== 'string' || typeof payload.acc !== 'string' || typeof payload.key_id !== 'string')
        return { ok: false, reason: 'The token is not valid.' };
      return { ok: true, claims: { userId: payload.sub, accountId: payload.acc, keyId: payload.key_id } };
    } catch (err) {
      if (err instanceof errors.JWTExpired)
        return { ok: false, reason: 'The token has expired; exchange the API key again, or send the API key itself.' };
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'aud')
        return { ok: false, reason: 'The token was issued for another resource.' };
      return { ok: false, reason: 'The token is not valid.' };
    }
  }
}
