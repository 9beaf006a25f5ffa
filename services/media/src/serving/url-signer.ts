import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, MEDIA_FILES_PATH } from '@postbus/contracts';

/**
 * Serve URLs platforms can fetch without a key: `{base_url}/files/{mediaId}?expires=<unix s>&sig=<HMAC>`.
 * The HMAC-SHA256 covers the media id and the expiry, so neither can be changed.
 */
export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  sign(mediaId: string, baseUrl: string): string {
    const expires = Math.floor(this.clock().getTime() / 1000) + this.ttlSeconds;
    const query = new URLSearchParams({ expires: String(expires), sig: this.signature(mediaId, expires) });
    return `${baseUrl.replace(/\/+$/, '')}${MEDIA_FILES_PATH}/${encodeURIComponent(mediaId)}?${query.toString()}`;
  }

  /** Throws invalid_signature unless the URL was signed here and has not expired; answers seconds left. */
  verify(mediaId: string, expires: unknown, sig: unknown): number {
    if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) {
      throw new AppError(
        'invalid_signature',
        'This media URL is not signed; ask the API for the media again to get a fresh URL.',
      );
    }
    const expected = Buffer.from(this.signature(mediaId, Number(expires)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError('invalid_signature', "This media URL's signature is not valid.");
    }
    const left = Number(expires) - Math.floor(this.clock().getTime() / 1000);
    if (left <= 0)
      throw new AppError(
        'invalid_signature',
        'This media URL has expired; ask the API for the media again to get a fresh URL.',
      );
    return left;
  }

  private signature(mediaId: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${mediaId}\n${expires}`).digest('base64url');
  }
}
