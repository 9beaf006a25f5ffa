import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AppError,
  MEDIA_MAX_BYTES,
  MEDIA_UPLOAD_URL_TTL_SECONDS,
  MEDIA_UPLOADS_PATH,
  newId,
  type MediaUploaded,
  type MediaUploadUrl,
  type Principal,
} from '@postbus/contracts';
import { stageObject } from '../ingest/stage-object';
import type { MediaPorts } from './media-ports';
import { uploadMedia } from './upload-media.use-case';
import { assertRoomLeft, getUploadAllowance } from './upload-allowance';

/** What an upload URL grants: one file, stored as this media of this account, for the caller who asked. */
interface UploadGrant {
  mediaId: string;
  accountId: string;
  userId: string;
  credential: Principal['credential'];
  filename: string | null;
  expires: number;
}

/**
 * Upload URLs `{base_url}/uploads/{token}`: the token carries the grant and an HMAC over it, so
 * the PUT needs no key and media keeps no state until the file arrives. The HMAC covers a purpose
 * of its own, so no serve or rendition signature passes for one.
 */
export class UploadUrlSigner {
  constructor(
    private readonly secret: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  sign(grant: Omit<UploadGrant, 'expires'>): { token: string; expires: number } {
    const expires = Math.floor(this.clock().getTime() / 1000) + MEDIA_UPLOAD_URL_TTL_SECONDS;
    const payload = Buffer.from(JSON.stringify({ ...grant, expires })).toString('base64url');
    return { token: `${payload}.${this.signature(payload)}`, expires };
  }

  /** The grant of a token signed here and not expired; invalid_signature otherwise. */
  verify(token: string): UploadGrant {
    const refused = (why: string) =>
      new AppError(
        'invalid_signature',
        `This upload URL ${why}; ask for a new one (svc_create_upload_url or POST /api/v1/media/upload-url).`,
      );
    const [payload, sig, extra] = token.split('.');
    if (!payload || !sig || extra !== undefined) throw refused('is not signed');
    const expected = Buffer.from(this.signature(payload));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused('is not signed');
    const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as UploadGrant;
    if (grant.expires <= Math.floor(this.clock().getTime() / 1000)) throw refused('has expired');
    return grant;
  }

  private signature(payload: string): string {
    return createHmac('sha256', this.secret).update(`media upload url\n${payload}`).digest('base64url');
  }
}

export type UploadUrlPorts = MediaPorts & { uploadUrls: UploadUrlSigner };

/** An upload URL for the caller: refused at once when the plan or the storage left allows no upload. */
export async function createUploadUrl(
  ports: UploadUrlPorts,
  principal: Principal,
  input: { filename?: string },
): Promise<MediaUploadUrl> {
  const allowance = await getUploadAllowance(ports, principal);
  assertRoomLeft(allowance);
  const mediaId = newId('med');
  const { token, expires } = ports.uploadUrls.sign({
    mediaId,
    accountId: principal.accountId,
    userId: principal.userId,
    credential: principal.credential,
    filename: input.filename ?? null,
  });
  return {
    mediaId,
    uploadUrl: `${ports.publicBaseUrl.replace(/\/+$/, '')}${MEDIA_UPLOADS_PATH}/${token}`,
    method: 'PUT',
    expiresAt: new Date(expires * 1000).toISOString(),
    maxBytes: Math.min(MEDIA_MAX_BYTES, allowance.remainingBytes),
  };
}

/**
 * The PUT of an upload URL: its body, as it streams in, goes through the checks of every upload
 * (plan and storage left asked again now, type read from the bytes, 50 MB, probe) and is stored
 * as the granted mediaId. A URL stores one file: once its media exists, it is refused.
 */
export async function receiveUpload(
  ports: UploadUrlPorts,
  token: string,
  body: Readable,
  baseUrl: string,
): Promise<MediaUploaded> {
  const grant = ports.uploadUrls.verify(token);
  if (await ports.media.findReady(grant.accountId, grant.mediaId))
    throw new AppError('invalid_signature', 'This upload URL was used already; ask for a new one.');
  const principal: Principal = {
    accountId: grant.accountId,
    userId: grant.userId,
    credential: grant.credential,
    scopes: ['media:write'],
    profileIds: 'all',
  };
  return uploadMedia(
    ports,
    principal,
    async (limits) => ({ staged: await stageObject(ports.store, body, limits), filename: grant.filename }),
    baseUrl,
    grant.mediaId,
  );
}
