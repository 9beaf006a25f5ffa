import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import type { PinterestPinRecord } from './store';
import { badRequest, isHttpUrl, optionalText, PinterestError } from './wire';

const PIN_KEYS = new Set([
  'link',
  'title',
  'description',
  'dominant_color',
  'alt_text',
  'board_id',
  'board_section_id',
  'media_source',
  'parent_pin_id',
  'note',
]);
const ID = /^\d+$/;

/**
 * POST /v5/pins as Pinterest checks it (https://developers.pinterest.com/docs/api/v5/pins-create):
 * a board of the token's account (and a section of it), title ≤ 100, description ≤ 800,
 * link ≤ 2,048 (http/https), alt_text ≤ 500, and one media_source.
 */
export function createPin(state: SandboxState, user: SandboxUser, body: Record<string, unknown>): unknown {
  const unknown = Object.keys(body).find((k) => !PIN_KEYS.has(k));
  if (unknown) throw badRequest(`Unknown property ${unknown}.`);
  if (typeof body.board_id !== 'string' || !ID.test(body.board_id))
    throw badRequest('board_id is required: a string of digits.');
  const board = state.pinterest.boards.get(body.board_id);
  if (!board || board.userId !== user.userId) throw new PinterestError(404, 40, 'Board not found.');
  const section = body.board_section_id;
  if (section !== undefined && (typeof section !== 'string' || !board.sectionIds.includes(section)))
    throw new PinterestError(404, 41, 'Board section not found.');
  const title = optionalText(body, 'title', 100);
  const description = optionalText(body, 'description', 800);
  const altText = optionalText(body, 'alt_text', 500);
  const link = optionalText(body, 'link', 2048);
  if (link !== null && !isHttpUrl(link)) throw badRequest('link must be an http(s) URL.');
  const mediaSource = checkMediaSource(state, user, body.media_source);
  const pin: PinterestPinRecord = {
    id: state.ids.numeric(),
    userId: user.userId,
    boardId: board.id,
    boardSectionId: typeof section === 'string' ? section : null,
    title,
    description,
    link,
    altText,
    mediaSource,
    visibleToOwnerOnly: state.pinterest.limits.trialAccess,
    createdAt: new Date(state.now()).toISOString(),
  };
  state.pinterest.pins.set(pin.id, pin);
  state.published.record({
    platform: 'pinterest',
    id: pin.id,
    userId: user.userId,
    handle: user.handle,
    text: description ?? '',
    title,
    mediaUrls: mediaUrlsOf(mediaSource),
    mediaType: String(mediaSource.source_type),
    containerId: typeof mediaSource.media_id === 'string' ? mediaSource.media_id : null,
    permalink: `https://www.pinterest.com/pin/${pin.id}/`,
    createdAt: pin.createdAt,
    details: {
      boardId: board.id,
      boardSectionId: pin.boardSectionId,
      link,
      altText,
      trialAccess: pin.visibleToOwnerOnly,
    },
  });
  return pinBody(pin);
}

function mediaUrlsOf(source: Record<string, unknown>): string[] {
  if (typeof source.url === 'string') return [source.url];
  if (Array.isArray(source.items)) return (source.items as { url: string }[]).map((i) => i.url);
  return [];
}

/** One of the media sources pins take; a video must be an upload of this account that finished processing. */
function checkMediaSource(state: SandboxState, user: SandboxUser, raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('media_source is required.');
  const source = raw as Record<string, unknown>;
  switch (source.source_type) {
    case 'image_url':
      if (!isHttpUrl(source.url)) throw badRequest('media_source.url must be an http(s) URL.');
      return { source_type: 'image_url', url: source.url };
    case 'image_base64':
      if (!['image/jpeg', 'image/png'].includes(String(source.content_type)))
        throw badRequest('media_source.content_type must be image/jpeg or image/png.');
      if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/=]+$/.test(source.data))
        throw badRequest('media_source.data must be base64.');
      return { source_type: 'image_base64', content_type: source.content_type, bytes: source.data.length };
    case 'multiple_image_urls': {
      const items = Array.isArray(source.items) ? (source.items as Record<string, unknown>[]) : [];
      if (items.length < 2 || items.length > 5) throw badRequest('media_source.items must hold 2 to 5 images.');
      if (!items.every((i) => i && isHttpUrl(i.url))) throw badRequest('Each media_source item needs an http(s) url.');
      return { source_type: 'multiple_image_urls', items: items.map((i) => ({ url: i.url })) };
    }
    case 'video_id':
      return checkVideoSource(state, user, source);
    default:
      throw badRequest('media_source.source_type must be image_url, image_base64, multiple_image_urls or video_id.');
  }
}

function checkVideoSource(state: SandboxState, user: SandboxUser, source: Record<string, unknown>) {
  const media = typeof source.media_id === 'string' ? state.pinterest.media.get(source.media_id) : undefined;
  if (!media || media.userId !== user.userId)
    throw badRequest('media_source.media_id is not a media upload of this account.');
  if (media.status !== 'succeeded') throw badRequest(`The media upload is ${media.status}, not succeeded.`);
  const keyFrame = source.cover_image_key_frame_time;
  if (source.cover_image_url === undefined && keyFrame === undefined)
    throw badRequest('A video pin needs cover_image_url or cover_image_key_frame_time.');
  if (source.cover_image_url !== undefined && !isHttpUrl(source.cover_image_url))
    throw badRequest('cover_image_url must be an http(s) URL.');
  if (keyFrame !== undefined && (typeof keyFrame !== 'number' || keyFrame < 0))
    throw badRequest('cover_image_key_frame_time must be a number of seconds.');
  return {
    source_type: 'video_id',
    media_id: media.id,
    cover_image_url: source.cover_image_url,
    cover_image_key_frame_time: keyFrame,
  };
}

export function pinBody(p: PinterestPinRecord) {
  return {
    id: p.id,
    created_at: p.createdAt,
    board_id: p.boardId,
    board_section_id: p.boardSectionId,
    title: p.title,
    description: p.description,
    link: p.link,
    alt_text: p.altText,
    media: { media_type: p.mediaSource.source_type === 'video_id' ? 'video' : 'image' },
  };
}
