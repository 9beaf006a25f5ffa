import {
  LINKEDIN_PLATFORM,
  MediaReader,
  PlatformError,
  assertLinkedInPost,
  createLinkedInPost,
  finalizeLinkedInVideo,
  getLinkedInAssetStatus,
  initializeLinkedInUpload,
  mediaKindFromUrl,
  probeMedia,
  putLinkedInPart,
  type LinkedInApiOptions,
  type LinkedInAssetKind,
  type LinkedInContent,
  type LinkedInVisibility,
  type MediaFetchOptions,
} from '@postbus/platforms';
import type { AdapterConfig } from './adapter-config';
import { mediaOptions, metaFor, withoutPhase } from './adapter-config';
import {
  published,
  type Checkpoint,
  type PlatformAdapter,
  type PublishContext,
  type StepResult,
} from './platform-adapter';

interface LinkedInAssetRef {
  urn: string;
  kind: LinkedInAssetKind;
  ready: boolean;
}

interface LinkedInCheckpoint extends Checkpoint {
  /** Assets uploaded so far, in the post's order (an unused asset harms nothing). */
  assets?: LinkedInAssetRef[];
  /** When the post was first sent (epoch ms): a duplicate refusal naming a post created since is our own. */
  firstSentAt?: number;
}

/** Documents API: PPT, PPTX, DOC, DOCX and PDF (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/documents-api). */
const DOCUMENT_TYPES = [
  'application/pdf',
  'application/msword',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
];
const DOCUMENT_EXTENSIONS = /\.(pdf|docx?|pptx?)$/i;

/**
 * LinkedIn: each media item registered (initializeUpload on the Images, Videos or Documents API with
 * the profile's URN as owner), its bytes PUT (a video in the parts LinkedIn cut, then finalizeUpload
 * with their ETags), waited for until AVAILABLE, then one post (POST /rest/posts) by the profile's
 * URN: the member's `urn:li:person:…` or an organization's `urn:li:organization:…`. A lost answer to
 * the post is settled by sending it again: LinkedIn refuses a repeat of the same content with 422
 * naming the first post, which createLinkedInPost takes as the post.
 */
export function linkedinAdapter(cfg: AdapterConfig): PlatformAdapter {
  const api = (ctx: PublishContext, timeoutMs = cfg.requestTimeoutMs): LinkedInApiOptions => ({
    baseUrl: cfg.linkedinApiUrl,
    accessToken: ctx.creds.accessToken,
    version: cfg.linkedinApiVersion,
    timeoutMs,
  });
  return {
    async run(ctx): Promise<StepResult> {
      let cp = ctx.checkpoint as LinkedInCheckpoint;
      const meta = settingsOf(ctx);
      if (!cp.assets) {
        assertLinkedInPost({
          ...meta,
          author: ctx.creds.platformUserId,
          text: ctx.job.caption,
          images: ctx.mediaUrls.length,
        });
        cp = { ...cp, assets: await uploadAssets(ctx, api(ctx), cfg, mediaOptions(cfg, LINKEDIN_PLATFORM)) };
        ctx.progress(cp);
      }
      if (cp.assets!.some((a) => !a.ready)) {
        // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api#get-a-video (images and documents alike)
        const assets = await Promise.all(cp.assets!.map(async (a) => (a.ready ? a : refreshStatus(api(ctx), a))));
        cp = { ...cp, assets };
        if (assets.some((a) => !a.ready))
          return { kind: 'waiting', checkpoint: cp, what: 'LinkedIn was still processing the media' };
      }
      // Durable before the call: a taken-over attempt resends the same content, and LinkedIn names the first post.
      const resent = cp.firstSentAt !== undefined;
      cp = { ...cp, firstSentAt: cp.firstSentAt ?? Date.now() };
      await ctx.save({ ...cp, phase: 'publishing' });
      // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#create-a-post
      const post = await createLinkedInPost(
        api(ctx),
        {
          author: ctx.creds.platformUserId,
          text: ctx.job.caption,
          visibility: meta.visibility,
          disableReshare: meta.disableReshare,
          content: contentOf(cp.assets!, meta),
        },
        { firstSentAt: resent ? new Date(cp.firstSentAt!) : undefined },
      );
      return published(post.urn, post.permalink);
    },

    /** Resending is safe: the same author, commentary and assets again are refused as a duplicate naming the first post. */
    async resolve(ctx) {
      const cp = ctx.checkpoint as LinkedInCheckpoint;
      if (!cp.assets) return { kind: 'unknown' };
      return { kind: 'continue', checkpoint: withoutPhase(cp) };
    },
  };
}

interface LinkedInSettings {
  visibility?: LinkedInVisibility;
  altTexts: string[];
  title?: string;
  disableReshare?: boolean;
}

function settingsOf(ctx: PublishContext): LinkedInSettings {
  const meta = metaFor(ctx.job.platformMeta, LINKEDIN_PLATFORM);
  return {
    visibility: typeof meta.visibility === 'string' ? (meta.visibility as LinkedInVisibility) : undefined,
    altTexts: Array.isArray(meta.altTexts) ? meta.altTexts.map((a) => (typeof a === 'string' ? a : '')) : [],
    title: typeof meta.title === 'string' ? meta.title : undefined,
    disableReshare: typeof meta.disableReshare === 'boolean' ? meta.disableReshare : undefined,
  };
}

function contentOf(assets: LinkedInAssetRef[], meta: LinkedInSettings): LinkedInContent {
  if (!assets.length) return { kind: 'none' };
  const [first] = assets;
  if (first.kind === 'image')
    return { kind: 'image', images: assets.map((a, i) => ({ urn: a.urn, altText: meta.altTexts[i] || undefined })) };
  // A document post shows a title; LinkedIn refuses one without.
  const title = meta.title ?? (first.kind === 'document' ? 'Document' : undefined);
  return { kind: first.kind, urn: first.urn, title };
}

async function refreshStatus(api: LinkedInApiOptions, asset: LinkedInAssetRef): Promise<LinkedInAssetRef> {
  const status = await getLinkedInAssetStatus(api, asset.kind, asset.urn);
  if (status === 'PROCESSING_FAILED')
    throw refuse(
      `LinkedIn could not process the ${asset.kind} (${asset.urn}); check its format and size.`,
      'media_processing_failed',
    );
  return { ...asset, ready: status === 'AVAILABLE' };
}

function kindOf(url: string, contentType: string): LinkedInAssetKind {
  if (DOCUMENT_TYPES.includes(contentType) || DOCUMENT_EXTENSIONS.test(url.split('?')[0])) return 'document';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType.startsWith('image/')) return 'image';
  return mediaKindFromUrl(url) ?? 'image';
}

/** Probes every item, checks the mix LinkedIn takes (1–20 images, or one video, or one document), then uploads each. */
async function uploadAssets(
  ctx: PublishContext,
  api: LinkedInApiOptions,
  cfg: AdapterConfig,
  media: MediaFetchOptions,
): Promise<LinkedInAssetRef[]> {
  const infos = await Promise.all(ctx.mediaUrls.map((url) => probeMedia(url, media)));
  const kinds = infos.map((info, i) => kindOf(ctx.mediaUrls[i], info.contentType));
  if (kinds.length > 1 && kinds.some((k) => k !== 'image'))
    throw refuse(
      'A LinkedIn post carries images (up to 20), or one video, or one document: not a mix.',
      'invalid_media_mix',
    );
  const out: LinkedInAssetRef[] = [];
  for (const [i, url] of ctx.mediaUrls.entries()) {
    const kind = kinds[i];
    const upload = await initializeLinkedInUpload(api, kind, ctx.creds.platformUserId, infos[i].size);
    const reader = await MediaReader.open(url, 0, media);
    const etags: string[] = [];
    try {
      for (const part of upload.parts) {
        const length = part.lastByte - part.firstByte + 1;
        const contentType = kind === 'video' ? 'application/octet-stream' : infos[i].contentType;
        // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api#upload-the-video
        etags.push(
          await putLinkedInPart(
            api,
            { ...part, contentType, body: reader.chunk(length) },
            {
              timeoutMs: cfg.uploadTimeoutMs,
              answerTimeoutMs: cfg.requestTimeoutMs,
            },
          ),
        );
      }
    } finally {
      await reader.close();
    }
    // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api#finalize-video-upload
    if (kind === 'video') await finalizeLinkedInVideo(api, upload.urn, upload.uploadToken, etags);
    out.push({ urn: upload.urn, kind, ready: false });
  }
  return out;
}

function refuse(message: string, code: string): PlatformError {
  return new PlatformError(message, { platform: LINKEDIN_PLATFORM, transient: false, code });
}
