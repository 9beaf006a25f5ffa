import { randomUUID } from 'node:crypto';
import {
  MASTODON_MEDIA_MAX,
  MASTODON_POLL_EXPIRES_IN,
  MASTODON_POLL_OPTION_MAX,
  MASTODON_POLL_OPTIONS,
  MASTODON_TEXT_MAX,
} from '@postbus/contracts';
import { PlatformError } from '../errors';
import { callMastodon, MASTODON_PLATFORM, type MastodonApiOptions } from './api';
import { mastodonTextLength } from './text';

/** What an instance allows (https://docs.joinmastodon.org/entities/Instance/#configuration); defaults where it says nothing. */
export interface MastodonLimits {
  maxCharacters: number;
  maxMediaAttachments: number;
  charactersReservedPerUrl: number;
  imageSizeLimit: number;
  videoSizeLimit: number;
  pollMaxOptions: number;
  pollMaxCharactersPerOption: number;
  pollMinExpiration: number;
  pollMaxExpiration: number;
}

/** Mastodon's own defaults: 16 MB images, 99 MB videos (https://docs.joinmastodon.org/entities/Instance/#media_attachments). */
export const MASTODON_DEFAULT_LIMITS: MastodonLimits = {
  maxCharacters: MASTODON_TEXT_MAX,
  maxMediaAttachments: MASTODON_MEDIA_MAX,
  charactersReservedPerUrl: 23,
  imageSizeLimit: 16_777_216,
  videoSizeLimit: 103_809_024,
  pollMaxOptions: MASTODON_POLL_OPTIONS.max,
  pollMaxCharactersPerOption: MASTODON_POLL_OPTION_MAX,
  pollMinExpiration: MASTODON_POLL_EXPIRES_IN.min,
  pollMaxExpiration: MASTODON_POLL_EXPIRES_IN.max,
};

/** The instance's configured limits: https://docs.joinmastodon.org/methods/instance/#v2 */
export async function getMastodonLimits(
  api: MastodonApiOptions,
): Promise<MastodonLimits & { title?: string; version?: string }> {
  const { body } = await callMastodon<{
    title?: string;
    version?: string;
    configuration?: Record<string, Record<string, unknown> | undefined>;
  }>(api, { method: 'GET', path: '/api/v2/instance' });
  const c = body.configuration ?? {};
  const num = (group: string, key: string, def: number) => {
    const value = c[group]?.[key];
    return typeof value === 'number' ? value : def;
  };
  const d = MASTODON_DEFAULT_LIMITS;
  return {
    title: body.title,
    version: body.version,
    maxCharacters: num('statuses', 'max_characters', d.maxCharacters),
    maxMediaAttachments: num('statuses', 'max_media_attachments', d.maxMediaAttachments),
    charactersReservedPerUrl: num('statuses', 'characters_reserved_per_url', d.charactersReservedPerUrl),
    imageSizeLimit: num('media_attachments', 'image_size_limit', d.imageSizeLimit),
    videoSizeLimit: num('media_attachments', 'video_size_limit', d.videoSizeLimit),
    pollMaxOptions: num('polls', 'max_options', d.pollMaxOptions),
    pollMaxCharactersPerOption: num('polls', 'max_characters_per_option', d.pollMaxCharactersPerOption),
    pollMinExpiration: num('polls', 'min_expiration', d.pollMinExpiration),
    pollMaxExpiration: num('polls', 'max_expiration', d.pollMaxExpiration),
  };
}

export interface MastodonAttachment {
  id: string;
  type: string;
  /** Null while the instance is still processing the file. */
  url: string | null;
}

/** A file part of a multipart upload. */
export interface MastodonFilePart {
  bytes: Uint8Array;
  contentType: string;
  filename: string;
}

/**
 * Uploads one file (https://docs.joinmastodon.org/methods/media/#v2): 200 when it is ready, 202
 * with `url: null` while the instance processes it (poll getMastodonMedia until `url` is set).
 * `thumbnail` is the video's custom preview image (the `thumbnail` file part of the same call).
 */
export async function uploadMastodonMedia(
  api: MastodonApiOptions,
  file: MastodonFilePart & { description?: string; thumbnail?: MastodonFilePart },
): Promise<MastodonAttachment> {
  const boundary = `postbus-${randomUUID()}`;
  const parts: Buffer[] = [];
  if (file.description)
    parts.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="description"\r\n\r\n${file.description}\r\n`),
    );
  parts.push(filePart(boundary, 'file', file));
  if (file.thumbnail) parts.push(filePart(boundary, 'thumbnail', file.thumbnail));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const { body } = await callMastodon<Partial<MastodonAttachment>>(api, {
    method: 'POST',
    path: '/api/v2/media',
    multipart: { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` },
  });
  return attachmentOf(body);
}

/** One `form-data` file part, its closing line break included. */
function filePart(boundary: string, name: string, file: MastodonFilePart): Buffer {
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${file.filename.replace(/["\r\n]/g, '')}"\r\ncontent-type: ${file.contentType}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.from(file.bytes), Buffer.from('\r\n')]);
}

/** An attachment's state; `url` stays null until processing is done: https://docs.joinmastodon.org/methods/media/#get */
export async function getMastodonMedia(api: MastodonApiOptions, id: string): Promise<MastodonAttachment> {
  // 206 Partial Content: still processing; 200: ready.
  const { body } = await callMastodon<Partial<MastodonAttachment>>(api, {
    method: 'GET',
    path: `/api/v1/media/${encodeURIComponent(id)}`,
  });
  return attachmentOf(body);
}

function attachmentOf(body: Partial<MastodonAttachment>): MastodonAttachment {
  if (typeof body.id !== 'string')
    throw new PlatformError('Mastodon answered an upload without its id.', {
      platform: MASTODON_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  return { id: body.id, type: String(body.type ?? 'unknown'), url: typeof body.url === 'string' ? body.url : null };
}

export interface MastodonStatusInput {
  status: string;
  mediaIds?: string[];
  spoilerText?: string;
  visibility?: 'public' | 'unlisted' | 'private' | 'direct';
  language?: string;
  sensitive?: boolean;
  poll?: { options: string[]; expiresIn: number; multiple?: boolean };
}

export interface MastodonStatus {
  id: string;
  url: string | null;
  uri: string;
  createdAt: string;
}

/** Refusals the status would get from the instance (its own limits), found before any call. */
export function assertMastodonStatus(
  input: MastodonStatusInput,
  limits: MastodonLimits = MASTODON_DEFAULT_LIMITS,
): void {
  const refuse = (message: string, code: string) =>
    new PlatformError(message, { platform: MASTODON_PLATFORM, transient: false, code });
  const length = mastodonTextLength(input.status, input.spoilerText);
  if (length > limits.maxCharacters)
    throw refuse(
      `The status is ${length} characters as Mastodon counts them (text and content warning); this instance allows ${limits.maxCharacters}.`,
      'text_too_long',
    );
  const media = input.mediaIds?.length ?? 0;
  if (media > limits.maxMediaAttachments)
    throw refuse(
      `A status on this instance carries at most ${limits.maxMediaAttachments} media; this one has ${media}.`,
      'too_many_media',
    );
  if (!input.status.trim() && !media) throw refuse('A Mastodon status needs text or media.', 'empty_status');
  if (input.poll) {
    const { options, expiresIn } = input.poll;
    if (media) throw refuse('A Mastodon status carries media or a poll, not both.', 'poll_with_media');
    if (options.length < 2 || options.length > limits.pollMaxOptions)
      throw refuse(
        `A poll has 2 to ${limits.pollMaxOptions} options on this instance; this one has ${options.length}.`,
        'poll_invalid',
      );
    const long = options.find((o) => [...o].length > limits.pollMaxCharactersPerOption);
    if (long !== undefined)
      throw refuse(
        `Poll options are at most ${limits.pollMaxCharactersPerOption} characters on this instance.`,
        'poll_invalid',
      );
    if (expiresIn < limits.pollMinExpiration || expiresIn > limits.pollMaxExpiration)
      throw refuse(
        `A poll stays open ${limits.pollMinExpiration} to ${limits.pollMaxExpiration} seconds on this instance.`,
        'poll_invalid',
      );
  }
}

/**
 * Posts a status (https://docs.joinmastodon.org/methods/statuses/#create) under an
 * `Idempotency-Key`: the instance answers a repeat of the same key within an hour with the status
 * the first call made, so a retry after a lost answer never posts twice.
 */
export async function createMastodonStatus(
  api: MastodonApiOptions,
  idempotencyKey: string,
  input: MastodonStatusInput,
): Promise<MastodonStatus> {
  const form: Record<string, string | string[] | undefined> = {
    status: input.status,
    'media_ids[]': input.mediaIds?.length ? input.mediaIds : undefined,
    spoiler_text: input.spoilerText || undefined,
    visibility: input.visibility,
    language: input.language,
    sensitive: input.sensitive === undefined ? undefined : String(input.sensitive),
  };
  if (input.poll) {
    form['poll[options][]'] = input.poll.options;
    form['poll[expires_in]'] = String(input.poll.expiresIn);
    if (input.poll.multiple !== undefined) form['poll[multiple]'] = String(input.poll.multiple);
  }
  const { body } = await callMastodon<Record<string, unknown>>(api, {
    method: 'POST',
    path: '/api/v1/statuses',
    form,
    headers: { 'idempotency-key': idempotencyKey },
    write: true,
  });
  if (typeof body.id !== 'string')
    throw new PlatformError('Mastodon answered a status without its id.', {
      platform: MASTODON_PLATFORM,
      transient: true,
      code: 'invalid_answer',
      outcomeUnknown: true,
    });
  return statusOf(body);
}

function statusOf(body: Record<string, unknown>): MastodonStatus {
  return {
    id: String(body.id),
    url: typeof body.url === 'string' ? body.url : null,
    uri: typeof body.uri === 'string' ? body.uri : '',
    createdAt: typeof body.created_at === 'string' ? body.created_at : '',
  };
}

/**
 * Finds a status this account posted since `since` with this text and content warning (or these
 * attachments): how a publish whose Idempotency-Key window may have passed is settled before it
 * is sent again. Reads the account's statuses (https://docs.joinmastodon.org/methods/accounts/#statuses)
 * and each candidate's source text (https://docs.joinmastodon.org/methods/statuses/#source).
 */
export async function findMastodonStatus(
  api: MastodonApiOptions,
  accountId: string,
  since: Date,
  want: { status: string; spoilerText?: string; mediaIds?: string[] },
): Promise<MastodonStatus | undefined> {
  const { body } = await callMastodon<unknown>(api, {
    method: 'GET',
    path: `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses`,
    query: { limit: '40', exclude_reblogs: 'true' },
  });
  const statuses = (Array.isArray(body) ? body : []) as Record<string, unknown>[];
  // A minute of slack for the instance's clock.
  const recent = statuses.filter((s) => Date.parse(String(s.created_at)) >= since.getTime() - 60_000);
  for (const s of recent) {
    const media = Array.isArray(s.media_attachments)
      ? (s.media_attachments as { id?: unknown }[]).map((m) => String(m.id))
      : [];
    if (want.mediaIds?.length) {
      // An attachment belongs to one status only: the same ids settle it.
      if (media.length === want.mediaIds.length && want.mediaIds.every((id) => media.includes(id))) return statusOf(s);
      continue;
    }
    if (media.length) continue;
    const { body: source } = await callMastodon<{ text?: string; spoiler_text?: string }>(api, {
      method: 'GET',
      path: `/api/v1/statuses/${encodeURIComponent(String(s.id))}/source`,
    });
    if (source.text === want.status && (source.spoiler_text ?? '') === (want.spoilerText ?? '')) return statusOf(s);
  }
  return undefined;
}

/** The status's page on its instance: `https://{instance}/@{username}/{id}`. */
export function mastodonPermalink(instance: string, username: string, statusId: string): string {
  return `https://${instance}/@${username}/${statusId}`;
}
