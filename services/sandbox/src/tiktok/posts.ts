import { randomBytes } from 'node:crypto';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { jsonText } from '../wire-text';
import { checkUnauditedPost, recordPoster } from './audit';
import { TikTokError, invalidParam } from './http';
import type { TikTokPublish } from './store';

/**
 * A media URL containing `fail-processing` fails after processing (`fail-processing-duration_check_failed` picks the
 * reason); `fail-processing-internal-once` fails only the account's first publish of that URL (a new init succeeds).
 */
const FAIL_PROCESSING = /fail-processing(?:-([a-z_]+?))?(-once)?(?=[^a-z_]|$)/;

/**
 * `creator_info/query`: the account's posting options. A private account is not offered
 * PUBLIC_TO_EVERYONE; an unaudited client is offered SELF_ONLY only (the latter is the sandbox's
 * reading: TikTok documents the restriction, not how creator_info shows it).
 */
export function creatorInfo(state: SandboxState, user: SandboxUser): Record<string, unknown> {
  const l = state.tiktok.limits;
  const options = state.tiktok.audit.unaudited
    ? ['SELF_ONLY']
    : l.privacyLevelOptions.filter((o) => !(user.privateAccount && o === 'PUBLIC_TO_EVERYONE'));
  return {
    creator_avatar_url: `https://p16-sign.tiktokcdn.com/${user.userId}.jpeg`,
    creator_username: user.handle,
    creator_nickname: user.handle,
    privacy_level_options: options,
    comment_disabled: l.commentDisabled,
    duet_disabled: l.duetDisabled,
    stitch_disabled: l.stitchDisabled,
    max_video_post_duration_sec: l.maxVideoPostDurationSec,
  };
}

/** `video/init`: checks post_info and the chunk math, answers publish_id (+ upload_url for FILE_UPLOAD). */
export function initVideo(state: SandboxState, user: SandboxUser, body: Record<string, unknown>): TikTokPublish {
  const postInfo = object(body.post_info, 'post_info');
  const source = object(body.source_info, 'source_info');
  checkPostInfo(state, user, postInfo, 'video');
  recordPoster(state, user);
  const kind = source.source;
  if (kind === 'PULL_FROM_URL') {
    const url = verifiedUrl(state, source.video_url, 'video_url');
    const publish = newPublish(state, user, 'video', 'PULL_FROM_URL', postInfo, [url]);
    commit(state, user, publish);
    return publish;
  }
  if (kind !== 'FILE_UPLOAD') throw invalidParam('source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
  const { videoSize, chunkSize, totalChunks } = chunkMath(state, source);
  const publish = newPublish(state, user, 'video', 'FILE_UPLOAD', postInfo, []);
  Object.assign(publish, { videoSize, chunkSize, totalChunks });
  return publish;
}

/** `content/init` for photos: PULL_FROM_URL only, up to 35 images on verified prefixes. */
export function initPhoto(state: SandboxState, user: SandboxUser, body: Record<string, unknown>): TikTokPublish {
  if (body.media_type !== 'PHOTO') throw invalidParam('media_type must be PHOTO.');
  const mode = body.post_mode;
  if (mode !== 'DIRECT_POST' && mode !== 'MEDIA_UPLOAD')
    throw invalidParam('post_mode must be DIRECT_POST or MEDIA_UPLOAD.');
  const postInfo = object(body.post_info ?? {}, 'post_info');
  if (mode === 'DIRECT_POST') checkPostInfo(state, user, postInfo, 'photo');
  const source = object(body.source_info, 'source_info');
  if (source.source !== 'PULL_FROM_URL') throw invalidParam('Photo posts support source PULL_FROM_URL only.');
  const images = Array.isArray(source.photo_images) ? source.photo_images : [];
  if (images.length < 1 || images.length > state.tiktok.limits.photoMax)
    throw invalidParam(`photo_images must hold 1 to ${state.tiktok.limits.photoMax} URLs.`);
  const urls = images.map((u, i) => verifiedUrl(state, u, `photo_images[${i}]`));
  const cover = Number(source.photo_cover_index ?? 0);
  if (!Number.isInteger(cover) || cover < 0 || cover >= urls.length)
    throw invalidParam('photo_cover_index must point at one of photo_images.');
  const publish = newPublish(state, user, 'photo', 'PULL_FROM_URL', postInfo, urls);
  if (mode === 'DIRECT_POST') {
    recordPoster(state, user);
    commit(state, user, publish);
  }
  return publish;
}

/** `status/fetch`. */
export function publishStatus(
  state: SandboxState,
  user: SandboxUser,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const publish = state.tiktok.publishes.get(jsonText(body.publish_id));
  if (!publish || publish.userId !== user.userId) throw invalidParam('publish_id does not exist.');
  const base = {
    uploaded_bytes: publish.bytesReceived,
    downloaded_bytes: publish.source === 'PULL_FROM_URL' && publish.committedAt ? 1 : 0,
  };
  if (publish.committedAt === null)
    return {
      status: publish.source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
      publicaly_available_post_id: [],
      ...base,
    };
  if (state.now() - publish.committedAt < state.settingsFor('tiktok').processingDelayMs) {
    return {
      status: publish.source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
      publicaly_available_post_id: [],
      ...base,
    };
  }
  if (publish.failReason)
    return { status: 'FAILED', fail_reason: publish.failReason, publicaly_available_post_id: [], ...base };
  const isPrivate = publish.postInfo.privacy_level === 'SELF_ONLY';
  // "If the post was created for public viewership, it must undergo TikTok's moderation process" before its id is given (TT-ST).
  if (
    publish.postInfo.privacy_level === 'PUBLIC_TO_EVERYONE' &&
    publish.postId &&
    publish.withheldPolls < state.tiktok.limits.withholdPostIdPolls
  ) {
    publish.withheldPolls += 1;
    return { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [], ...base };
  }
  // list<int64>: the exact 19 digits as a JSON number, which a naive JSON.parse rounds (TT-ST).
  return {
    status: 'PUBLISH_COMPLETE',
    publicaly_available_post_id: isPrivate || !publish.postId ? [] : [BigInt(publish.postId)],
    ...base,
  };
}

/** The last chunk (or a PULL_FROM_URL init) hands the post to publishing: it goes live once, unless its media "fails". */
export function commit(state: SandboxState, user: SandboxUser, publish: TikTokPublish): void {
  publish.committedAt = state.now();
  const failure = publish.mediaUrls
    .map((u) => FAIL_PROCESSING.exec(u))
    .find((f) => f && !(f[2] && hasFailedBefore(state, publish)));
  if (publish.kind === 'photo' && publish.mediaUrls.some(isUnsupportedPhoto)) {
    publish.failReason = 'file_format_check_failed';
    return;
  }
  if (failure) {
    publish.failReason = failure[1] ?? (publish.kind === 'photo' ? 'photo_pull_failed' : 'video_pull_failed');
    return;
  }
  publish.postId = state.ids.numeric().padEnd(19, '7').slice(0, 19);
  const info = publish.postInfo;
  state.published.record({
    platform: 'tiktok',
    id: publish.postId,
    userId: user.userId,
    handle: user.handle,
    text: jsonText(publish.kind === 'photo' ? info.description : info.title),
    mediaUrls: publish.mediaUrls,
    mediaType: publish.kind === 'photo' ? 'PHOTO' : 'VIDEO',
    containerId: publish.publishId,
    permalink: `https://www.tiktok.com/@${user.handle}/video/${publish.postId}`,
    createdAt: new Date(publish.committedAt).toISOString(),
    title: publish.kind === 'photo' ? jsonText(info.title) : null,
    bytes: publish.source === 'FILE_UPLOAD' ? publish.bytesReceived : undefined,
    details: { source: publish.source, ...info },
  });
}

/**
 * TikTok takes photos as JPEG or WebP only (media transfer guide, image restrictions): it pulls a
 * PNG and fails it. The sandbox reads the format from the link's extension (it does not download).
 */
function isUnsupportedPhoto(url: string): boolean {
  const ext = /\.([a-z0-9]{2,5})$/i.exec(URL.canParse(url) ? new URL(url).pathname : url)?.[1].toLowerCase();
  return ext !== undefined && !['jpg', 'jpeg', 'webp'].includes(ext);
}

/** An earlier publish of the same account and media already failed. */
function hasFailedBefore(state: SandboxState, publish: TikTokPublish): boolean {
  return [...state.tiktok.publishes.values()].some(
    (p) =>
      p !== publish &&
      p.userId === publish.userId &&
      p.failReason !== null &&
      p.mediaUrls.join() === publish.mediaUrls.join(),
  );
}

function checkPostInfo(
  state: SandboxState,
  user: SandboxUser,
  info: Record<string, unknown>,
  kind: 'video' | 'photo',
): void {
  const l = state.tiktok.limits;
  const privacy = info.privacy_level;
  if (typeof privacy !== 'string' || !privacy) throw invalidParam('post_info.privacy_level is required.');
  checkUnauditedPost(state, user, privacy);
  const options = creatorInfo(state, user).privacy_level_options as string[];
  if (!options.includes(privacy))
    throw new TikTokError(
      400,
      'privacy_level_option_mismatch',
      `privacy_level ${privacy} is not among the creator's options.`,
    );
  if (info.brand_content_toggle === true && privacy === 'SELF_ONLY')
    throw invalidParam('Branded content cannot be posted with SELF_ONLY visibility.');
  const title = typeof info.title === 'string' ? info.title : '';
  const titleMax = kind === 'photo' ? l.photoTitleMax : l.videoTitleMax;
  if (title.length > titleMax) throw invalidParam(`post_info.title must be at most ${titleMax} characters.`);
  if (kind === 'photo' && typeof info.description === 'string' && info.description.length > l.photoDescriptionMax) {
    throw invalidParam(`post_info.description must be at most ${l.photoDescriptionMax} characters.`);
  }
  for (const flag of [
    'disable_comment',
    'disable_duet',
    'disable_stitch',
    'brand_content_toggle',
    'brand_organic_toggle',
  ]) {
    if (info[flag] !== undefined && typeof info[flag] !== 'boolean')
      throw invalidParam(`post_info.${flag} must be a boolean.`);
  }
  if (
    info.video_cover_timestamp_ms !== undefined &&
    (!Number.isInteger(info.video_cover_timestamp_ms) || (info.video_cover_timestamp_ms as number) < 0)
  ) {
    throw invalidParam('post_info.video_cover_timestamp_ms must be a non-negative integer.');
  }
}

function chunkMath(
  state: SandboxState,
  source: Record<string, unknown>,
): { videoSize: number; chunkSize: number; totalChunks: number } {
  const l = state.tiktok.limits;
  const videoSize = Number(source.video_size);
  const chunkSize = Number(source.chunk_size);
  const totalChunks = Number(source.total_chunk_count);
  if (![videoSize, chunkSize, totalChunks].every((n) => Number.isInteger(n) && n > 0)) {
    throw invalidParam('video_size, chunk_size and total_chunk_count are required positive integers for FILE_UPLOAD.');
  }
  if (videoSize < l.minChunkBytes) {
    if (chunkSize !== videoSize || totalChunks !== 1)
      throw invalidParam('A video smaller than the minimum chunk size must be uploaded whole in one chunk.');
    return { videoSize, chunkSize, totalChunks };
  }
  if (chunkSize < l.minChunkBytes || chunkSize > l.maxChunkBytes)
    throw invalidParam(`chunk_size must be between ${l.minChunkBytes} and ${l.maxChunkBytes} bytes.`);
  if (totalChunks !== Math.floor(videoSize / chunkSize))
    throw invalidParam('total_chunk_count must be floor(video_size / chunk_size).');
  if (totalChunks > l.maxChunks) throw invalidParam(`At most ${l.maxChunks} chunks are allowed.`);
  if (videoSize - chunkSize * (totalChunks - 1) > l.maxLastChunkBytes)
    throw invalidParam('The last chunk would be larger than allowed.');
  return { videoSize, chunkSize, totalChunks };
}

function verifiedUrl(state: SandboxState, value: unknown, name: string): string {
  if (typeof value !== 'string' || !/^https?:\/\//.test(value))
    throw invalidParam(`${name} must be an http or https URL.`);
  const prefixes = state.tiktok.limits.verifiedUrlPrefixes;
  if (prefixes && !prefixes.some((p) => value.startsWith(p))) {
    throw new TikTokError(
      403,
      'url_ownership_unverified',
      'The URL prefix or domain of the media is not verified for this client.',
    );
  }
  return value;
}

function object(value: unknown, name: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalidParam(`${name} is required.`);
  return value as Record<string, unknown>;
}

function newPublish(
  state: SandboxState,
  user: SandboxUser,
  kind: 'video' | 'photo',
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL',
  postInfo: Record<string, unknown>,
  mediaUrls: string[],
): TikTokPublish {
  const n = state.ids.numeric();
  const publish: TikTokPublish = {
    publishId: `${kind === 'photo' ? 'p_pub_url' : source === 'FILE_UPLOAD' ? 'v_pub_file' : 'v_pub_url'}~v2-1.${n}`,
    userId: user.userId,
    kind,
    source,
    postInfo,
    mediaUrls,
    videoSize: 0,
    chunkSize: 0,
    totalChunks: 0,
    bytesReceived: 0,
    chunksReceived: 0,
    uploadId: n,
    uploadToken: randomBytes(12).toString('hex'),
    createdAt: state.now(),
    committedAt: null,
    failReason: null,
    postId: null,
    withheldPolls: 0,
  };
  state.tiktok.publishes.set(publish.publishId, publish);
  state.tiktok.byUploadId.set(publish.uploadId, publish);
  return publish;
}
