import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs approval links: the token is an HMAC of the request's id and nonce under a server key,
 * so only the server can make a link, and a link opens only its own request.
 */
export class ApprovalSigner {
  constructor(private readonly key: string) {}

  sign(approvalId: string, nonce: string): string {
    return createHmac('sha256', this.key).update(`approval:${approvalId}:${nonce}`).digest('base64url');
  }

  verify(approvalId: string, nonce: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length > 128) return false;
    const expected = Buffer.from(this.sign(approvalId, nonce));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
