import { PlatformError } from '../errors';
import { fetchStreamed, type UploadDeadlines } from '../media/media-source';
import { readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import {
  LINKEDIN_ANSWER_MAX_BYTES,
  LINKEDIN_PLATFORM,
  callLinkedIn,
  linkedInError,
  linkedInNetworkError,
  parseLinkedInJson,
  type LinkedInApiOptions,
} from './api';

export type LinkedInAssetKind = 'image' | 'video' | 'document';

/** Where the Images, Videos and Documents APIs live, each with its initializeUpload action. */
const ASSET_PATHS: Record<LinkedInAssetKind, string> = {
  image: '/rest/images',
  video: '/rest/videos',
  document: '/rest/documents',
};

export interface LinkedInUploadPart {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

export interface LinkedInUpload {
  /** `urn:li:image:…`, `urn:li:video:…` or `urn:li:document:…`. */
  urn: string;
  /** One part for images and documents; a video's parts as LinkedIn cut them (4 MiB each). */
  parts: LinkedInUploadPart[];
  /** Videos: passed back to finalizeUpload (empty for a single-part upload). */
  uploadToken: string;
}

/**
 * Registers one upload (initializeUpload) for `owner`, the post's author:
 * - image: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api#initialize-image-upload
 * - video: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api#initialize-video-upload
 * - document: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/documents-api#initialize-document-upload
 */
export async function initializeLinkedInUpload(
  api: LinkedInApiOptions,
  kind: LinkedInAssetKind,
  owner: string,
  fileSizeBytes: number,
): Promise<LinkedInUpload> {
  const request: Record<string, unknown> = { owner };
  if (kind === 'video') Object.assign(request, { fileSizeBytes, uploadCaptions: false, uploadThumbnail: false });
  const { body } = await callLinkedIn<{ value?: Record<string, unknown> }>(api, {
    method: 'POST',
    path: ASSET_PATHS[kind],
    query: { action: 'initializeUpload' },
    json: { initializeUploadRequest: request },
  });
  const v = body.value ?? {};
  const urn = v[kind];
  if (typeof urn !== 'string') throw invalidAnswer(`initializeUpload answered without the ${kind} URN`);
  if (kind !== 'video') {
    if (typeof v.uploadUrl !== 'string') throw invalidAnswer('initializeUpload answered without an upload URL');
    return { urn, uploadToken: '', parts: [{ uploadUrl: v.uploadUrl, firstByte: 0, lastByte: fileSizeBytes - 1 }] };
  }
  const instructions = Array.isArray(v.uploadInstructions) ? (v.uploadInstructions as Record<string, unknown>[]) : [];
  const parts = instructions.map((i) => ({
    uploadUrl: String(i.uploadUrl),
    firstByte: Number(i.firstByte),
    lastByte: Number(i.lastByte),
  }));
  if (!parts.length || parts.some((p) => !Number.isInteger(p.firstByte) || p.lastByte < p.firstByte))
    throw invalidAnswer('initializeUpload answered without usable upload instructions');
  return { urn, parts, uploadToken: typeof v.uploadToken === 'string' ? v.uploadToken : '' };
}

/**
 * `PUT` of one part's bytes to its upload URL, streamed, with the member's token. Answers the part's
 * ETag, which finalizeUpload needs for a video
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api#upload-the-video).
 */
export async function putLinkedInPart(
  api: Pick<LinkedInApiOptions, 'accessToken' | 'fetchImpl'>,
  part: LinkedInUploadPart & { contentType: string; body: ReadableStream<Uint8Array> },
  deadlines: UploadDeadlines,
): Promise<string> {
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await fetchStreamed(
      api.fetchImpl ?? fetch,
      part.uploadUrl,
      {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${api.accessToken}`,
          'content-type': part.contentType,
          'content-length': String(part.lastByte - part.firstByte + 1),
        },
        body: part.body,
        redirect: 'manual',
      },
      deadlines,
    );
    // Only an error's body is read for its message: a long one is cut, a success's body is not needed.
    answer = await readBoundedAnswer(res, LINKEDIN_ANSWER_MAX_BYTES);
  } catch (cause) {
    if ((cause as { platform?: unknown }).platform) throw cause;
    throw linkedInNetworkError('the upload', false, cause);
  }
  if (res.status < 200 || res.status >= 300)
    throw linkedInError('PUT of the upload', false, res.status, res.headers, parseLinkedInJson(answer.text));
  return res.headers.get('etag') ?? '';
}

/** Completes a video upload with the parts' ETags in order: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api#finalize-video-upload */
export async function finalizeLinkedInVideo(
  api: LinkedInApiOptions,
  video: string,
  uploadToken: string,
  etags: string[],
): Promise<void> {
  await callLinkedIn(api, {
    method: 'POST',
    path: '/rest/videos',
    query: { action: 'finalizeUpload' },
    json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds: etags } },
  });
}

export type LinkedInAssetStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

/**
 * An asset's `status`: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api#get-a-single-image
 * (videos and documents alike, each under its own API).
 */
export async function getLinkedInAssetStatus(
  api: LinkedInApiOptions,
  kind: LinkedInAssetKind,
  urn: string,
): Promise<LinkedInAssetStatus> {
  const { body } = await callLinkedIn(api, { method: 'GET', path: `${ASSET_PATHS[kind]}/${encodeURIComponent(urn)}` });
  const status = typeof body.status === 'string' ? body.status : '';
  if (!['WAITING_UPLOAD', 'PROCESSING', 'AVAILABLE', 'PROCESSING_FAILED'].includes(status))
    throw invalidAnswer(`the ${kind} status was "${status.slice(0, 40)}"`);
  return status as LinkedInAssetStatus;
}

function invalidAnswer(what: string): PlatformError {
  return new PlatformError(`LinkedIn's answer was not usable: ${what}.`, {
    platform: LINKEDIN_PLATFORM,
    transient: true,
    code: 'invalid_answer',
  });
}
