import { Type, type Static } from '@sinclair/typebox';

/**
 * Pinterest pins (POST /v5/pins, https://developers.pinterest.com/docs/api/v5/pins-create): a title
 * of at most 100 characters, a description (the post's caption) of at most 800, a destination link
 * of at most 2,048, alt text of at most 500; one image, one video, or a carousel
 * (`multiple_image_urls`) of 2–5 images. A pin is saved to a board, named by its numeric id.
 */
export const PINTEREST_TITLE_MAX = 100;
export const PINTEREST_DESCRIPTION_MAX = 800;
export const PINTEREST_LINK_MAX = 2048;
export const PINTEREST_ALT_MAX = 500;
export const PINTEREST_CAROUSEL_IMAGES = { min: 2, max: 5 } as const;
/** Board and section ids are strings of digits (`^\d+$` in the reference). */
export const PINTEREST_ID_PATTERN = '^[0-9]{1,32}$';

/** The members of platformMeta.pinterest (its `normalize` is added beside the other platforms'). */
export const PINTEREST_META_PROPERTIES = {
  boardId: Type.Optional(
    Type.String({
      pattern: PINTEREST_ID_PATTERN,
      description: 'Required: a board id of the profile (see its pinterest/boards).',
    }),
  ),
  boardSectionId: Type.Optional(Type.String({ pattern: PINTEREST_ID_PATTERN, description: 'A section of the board.' })),
  title: Type.Optional(Type.String({ maxLength: PINTEREST_TITLE_MAX, description: 'The pin title.' })),
  link: Type.Optional(
    Type.String({
      format: 'uri',
      maxLength: PINTEREST_LINK_MAX,
      description: 'Where the pin leads.',
    }),
  ),
  altText: Type.Optional(Type.String({ maxLength: PINTEREST_ALT_MAX, description: 'Alt text.' })),
  coverImageUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'Video cover image.' })),
  coverKeyFrameSeconds: Type.Optional(Type.Number({ minimum: 0, description: 'Video cover frame, in seconds.' })),
};

/** A Pinterest profile's boards (GET /connections/{id}/pinterest/boards): where its pins may go. */
export const PinterestBoardsSchema = Type.Object({
  profileId: Type.String(),
  boards: Type.Array(
    Type.Object({
      id: Type.String({ description: 'Use it as platformMeta.pinterest.boardId.' }),
      name: Type.String(),
      description: Type.String(),
      privacy: Type.String({ description: 'PUBLIC, PROTECTED or SECRET.' }),
    }),
  ),
});
export type PinterestBoards = Static<typeof PinterestBoardsSchema>;
