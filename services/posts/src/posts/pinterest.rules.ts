import { PINTEREST_DESCRIPTION_MAX, PINTEREST_TITLE_MAX, type ErrorCode } from '@postbus/contracts';

interface PinInput {
  caption: string;
  title?: string;
  meta: Record<string, Record<string, unknown> | undefined>;
  hasMedia: boolean;
}

/**
 * A pin goes to a board, shows an image, a video or 2–5 images, and has a description (the
 * caption) of at most 800 characters and a title of at most 100
 * (https://developers.pinterest.com/docs/api/v5/pins-create).
 */
export function pinterestRules(p: PinInput, refuse: (message: string, field?: string, code?: ErrorCode) => void): void {
  const pin = p.meta.pinterest ?? {};
  if (!pin.boardId)
    refuse(
      'Pinterest pins go to a board: set platformMeta.pinterest.boardId (GET /api/v1/connections/{id}/pinterest/boards lists them).',
      'platformMeta.pinterest.boardId',
      'missing_board',
    );
  const length = [...p.caption].length;
  if (length > PINTEREST_DESCRIPTION_MAX)
    refuse(`Pinterest descriptions are at most ${PINTEREST_DESCRIPTION_MAX} characters (got ${length}).`, 'caption');
  const title = typeof pin.title === 'string' ? pin.title : p.title;
  if (title !== undefined && [...title].length > PINTEREST_TITLE_MAX)
    refuse(
      `Pinterest titles are at most ${PINTEREST_TITLE_MAX} characters.`,
      typeof pin.title === 'string' ? 'platformMeta.pinterest.title' : 'title',
    );
  if (!p.hasMedia) refuse('Pinterest pins need an image or a video (mediaId or mediaUrls).', 'mediaId');
}
