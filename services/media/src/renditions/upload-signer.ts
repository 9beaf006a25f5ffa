import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@postbus/contracts';

/** Where the transcoder sends a made rendition: media's own listener, never the public one. */
export const RENDITION_UPLOAD_PATH = '/renditions/:renditionId/file';

/** A job may wait in its queue and then run up to the transcoder's timeout: a day covers both. */
const UPLOAD_TTL_SECONDS = 24 * 3600;

/**
 * Signed upload paths `/renditions/{id}/file?expires=&sig=`: the transcoder holds no secret and no
 * storage credentials, yet only a path media handed out for a rendition it is making stores a
 * file as that rendition. The HMAC covers a purpose of its own, so a serve signature never
 * passes for an upload one.
 */
export class RenditionUploadSigner {
  constructor(
    private readonly secret: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  sign(renditionId: string): string {
    const expires = Math.floor(this.clock().getTime() / 1000) + UPLOAD_TTL_SECONDS;
    const query = new URLSearchParams({ expires: String(expires), sig: this.signature(renditionId, expires) });
    return `${RENDITION_UPLOAD_PATH.replace(':renditionId', encodeURIComponent(renditionId))}?${query.toString()}`;
  }

  verify(renditionId: string, expires: unknown, sig: unknown): void {
    const refused = () =>
      new AppError('invalid_signature', 'This rendition upload path is not signed, or has expired.');
    if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) throw refused();
    const expected = Buffer.from(this.signature(renditionId, Number(expires)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
    if (Number(expires) <= Math.floor(this.clock().getTime() / 1000)) throw refused();
  }

  private signature(renditionId: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`rendition upload\n${renditionId}\n${expires}`).digest('base64url');
  }
}
