import {
  PINTEREST_ALT_MAX,
  PINTEREST_CAROUSEL_IMAGES,
  PINTEREST_DESCRIPTION_MAX,
  PINTEREST_LINK_MAX,
  PINTEREST_TITLE_MAX,
} from '@postbus/contracts';
import { PlatformError } from '../errors';
import { callPinterest, PINTEREST_PLATFORM, type PinterestApiOptions } from './api';

/** What a pin shows: one image by URL, 2–5 images by URL (a carousel), or an uploaded video with its cover. */
export type PinterestMedia =
  | { kind: 'image'; url: string }
  | { kind: 'carousel'; urls: string[] }
  | { kind: 'video'; mediaId: string; coverImageUrl?: string; coverKeyFrameSeconds?: number };

export interface PinterestPinInput {
  boardId: string;
  boardSectionId?: string;
  title?: string;
  description?: string;
  link?: string;
  altText?: string;
  media: PinterestMedia;
}

export interface PinterestPin {
  id: string;
  createdAt: string;
}

function refuse(message: string, code: string): PlatformError {
  return new PlatformError(message, { platform: PINTEREST_PLATFORM, transient: false, code });
}

/** Refusals POST /v5/pins would answer (https://developers.pinterest.com/docs/api/v5/pins-create), found before any call. */
export function assertPinterestPin(input: PinterestPinInput): void {
  if (!/^\d+$/.test(input.boardId))
    throw refuse('A Pinterest pin needs a board: set platformMeta.pinterest.boardId.', 'board_required');
  const over = (value: string | undefined, max: number) => value !== undefined && [...value].length > max;
  if (over(input.title, PINTEREST_TITLE_MAX))
    throw refuse(`A Pinterest title is at most ${PINTEREST_TITLE_MAX} characters.`, 'title_too_long');
  if (over(input.description, PINTEREST_DESCRIPTION_MAX))
    throw refuse(`A Pinterest description is at most ${PINTEREST_DESCRIPTION_MAX} characters.`, 'text_too_long');
  if (over(input.link, PINTEREST_LINK_MAX))
    throw refuse(`A Pinterest link is at most ${PINTEREST_LINK_MAX} characters.`, 'link_too_long');
  if (over(input.altText, PINTEREST_ALT_MAX))
    throw refuse(`Pinterest alt text is at most ${PINTEREST_ALT_MAX} characters.`, 'alt_text_too_long');
  const { min, max } = PINTEREST_CAROUSEL_IMAGES;
  if (input.media.kind === 'carousel' && (input.media.urls.length < min || input.media.urls.length > max))
    throw refuse(
      `A Pinterest carousel has ${min} to ${max} images; this one has ${input.media.urls.length}.`,
      'carousel_size',
    );
}

/** The `media_source` object of POST /v5/pins for this media. */
export function pinterestMediaSource(media: PinterestMedia): Record<string, unknown> {
  switch (media.kind) {
    case 'image':
      return { source_type: 'image_url', url: media.url };
    case 'carousel':
      return { source_type: 'multiple_image_urls', items: media.urls.map((url) => ({ url })) };
    case 'video':
      return {
        source_type: 'video_id',
        media_id: media.mediaId,
        ...(media.coverImageUrl
          ? { cover_image_url: media.coverImageUrl }
          : { cover_image_key_frame_time: media.coverKeyFrameSeconds ?? 0 }),
      };
  }
}

/**
 * Creates a pin (https://developers.pinterest.com/docs/api/v5/pins-create). Pinterest takes no
 * idempotency key: a lost answer is settled with findPinterestPin before anything is sent again.
 */
export async function createPinterestPin(api: PinterestApiOptions, input: PinterestPinInput): Promise<PinterestPin> {
  assertPinterestPin(input);
  const body = await callPinterest(api, {
    method: 'POST',
    path: '/v5/pins',
    write: true,
    json: {
      board_id: input.boardId,
      board_section_id: input.boardSectionId,
      title: input.title,
      description: input.description,
      link: input.link,
      alt_text: input.altText,
      media_source: pinterestMediaSource(input.media),
    },
  });
  if (typeof body.id !== 'string')
    throw new PlatformError('Pinterest answered a pin without its id.', {
      platform: PINTEREST_PLATFORM,
      transient: true,
      code: 'invalid_answer',
      outcomeUnknown: true,
    });
  return { id: body.id, createdAt: typeof body.created_at === 'string' ? body.created_at : '' };
}

/**
 * A pin on the board made since `since` with this title, description and link: how a create whose
 * answer was lost is settled. Reads the board's newest pins (https://developers.pinterest.com/docs/api/v5/boards-list_pins).
 */
export async function findPinterestPin(
  api: PinterestApiOptions,
  since: Date,
  want: Pick<PinterestPinInput, 'boardId' | 'title' | 'description' | 'link'>,
): Promise<PinterestPin | undefined> {
  const body = await callPinterest<{ items?: Record<string, unknown>[] }>(api, {
    method: 'GET',
    path: `/v5/boards/${encodeURIComponent(want.boardId)}/pins`,
    query: { page_size: '50' },
  });
  const same = (a: unknown, b: string | undefined) => (typeof a === 'string' && a ? a : undefined) === (b || undefined);
  // A minute of slack for Pinterest's clock.
  const found = (body.items ?? []).find(
    (p) =>
      Date.parse(typeof p.created_at === 'string' ? p.created_at : '') >= since.getTime() - 60_000 &&
      same(p.title, want.title) &&
      same(p.description, want.description) &&
      same(p.link, want.link),
  );
  return found
    ? { id: String(found.id), createdAt: typeof found.created_at === 'string' ? found.created_at : '' }
    : undefined;
}

export interface PinterestBoard {
  id: string;
  name: string;
  description: string;
  privacy: string;
}

/** Pages of boards read at most (250 boards a page). */
const BOARD_PAGES_MAX = 8;

/** The account's boards, every page (https://developers.pinterest.com/docs/api/v5/boards-list, paged with `bookmark`). */
export async function listPinterestBoards(api: PinterestApiOptions): Promise<PinterestBoard[]> {
  const boards: PinterestBoard[] = [];
  let bookmark: string | undefined;
  for (let page = 0; page < BOARD_PAGES_MAX; page++) {
    const body = await callPinterest<{ items?: Record<string, unknown>[]; bookmark?: unknown }>(api, {
      method: 'GET',
      path: '/v5/boards',
      query: { page_size: '250', bookmark },
    });
    for (const b of body.items ?? [])
      boards.push({
        id: String(b.id),
        name: typeof b.name === 'string' ? b.name : '',
        description: typeof b.description === 'string' ? b.description : '',
        privacy: typeof b.privacy === 'string' ? b.privacy : 'PUBLIC',
      });
    bookmark = typeof body.bookmark === 'string' && body.bookmark ? body.bookmark : undefined;
    if (!bookmark) break;
  }
  return boards;
}
