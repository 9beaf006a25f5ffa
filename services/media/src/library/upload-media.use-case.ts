import { MEDIA_MAX_BYTES, type MediaUploaded, type Principal } from '@postbus/contracts';
import type { MeterLimits } from '../ingest/media-meter';
import type { StagedObject } from '../ingest/stage-object';
import { toMediaAsset } from './media-asset';
import type { MediaPorts } from './media-ports';
import { recordMedia } from './record-media.use-case';
import { assertRoomLeft, getUploadAllowance } from './upload-allowance';

/** Receives the file into storage within the limits given (a multipart part, decoded base64, …). */
export type ReceiveFile = (limits: MeterLimits) => Promise<{ staged: StagedObject; filename: string | null }>;

/**
 * An upload: the plan and the storage left are checked before a byte is read, the file is
 * streamed to storage within 50 MB and the quota, then added to the account's library (as
 * `mediaId` when an upload URL named it beforehand).
 */
export async function uploadMedia(
  ports: MediaPorts,
  principal: Principal,
  receive: ReceiveFile,
  baseUrl = ports.publicBaseUrl,
  mediaId?: string,
): Promise<MediaUploaded> {
  const allowance = await getUploadAllowance(ports, principal);
  assertRoomLeft(allowance);
  const { staged, filename } = await receive({ maxBytes: MEDIA_MAX_BYTES, quotaBytes: allowance.remainingBytes });
  const { media } = await recordMedia(ports, principal, staged, {
    origin: 'upload',
    sourceUrl: null,
    filename,
    quotaBytes: allowance.quotaBytes,
    mediaId,
  });
  return { success: true, url: toMediaAsset(media, ports.signer, baseUrl).url, mediaId: media.id };
}
