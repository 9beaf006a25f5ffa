import {
  MEDIA_RULES,
  assertPinterestPin,
  isPlatformError,
  mediaTargetOf,
  pinterestMediaSource,
  type PinterestPinInput,
} from '../src';

const image = { kind: 'image' as const, url: 'https://cdn.example.com/a.jpg' };
const refusal = (input: Partial<PinterestPinInput>) => {
  try {
    assertPinterestPin({ boardId: '123', media: image, ...input });
    return undefined;
  } catch (err) {
    if (!isPlatformError(err)) throw err;
    return { code: err.code, transient: err.transient };
  }
};

describe('what POST /v5/pins would refuse', () => {
  test('when a pin is within every limit, then nothing is refused', () => {
    expect(
      refusal({
        title: 't'.repeat(100),
        description: 'd'.repeat(800),
        link: `https://e.com/${'l'.repeat(2030)}`,
        altText: 'a'.repeat(500),
      }),
    ).toBeUndefined();
  });

  test.each([
    ['no board', { boardId: '' }, 'board_required'],
    ['a board id that is not digits', { boardId: 'board-1' }, 'board_required'],
    ['a title of 101 characters', { title: 't'.repeat(101) }, 'title_too_long'],
    ['a description of 801 characters', { description: 'd'.repeat(801) }, 'text_too_long'],
    ['a link of 2,054 characters', { link: `https://e.com/${'l'.repeat(2040)}` }, 'link_too_long'],
    ['alt text of 501 characters', { altText: 'a'.repeat(501) }, 'alt_text_too_long'],
    ['a carousel of 1 image', { media: { kind: 'carousel' as const, urls: ['https://e.com/1.jpg'] } }, 'carousel_size'],
    [
      'a carousel of 6 images',
      { media: { kind: 'carousel' as const, urls: Array.from({ length: 6 }, (_v, i) => `https://e.com/${i}.jpg`) } },
      'carousel_size',
    ],
  ])('when a pin has %s, then it is refused for good', (_what, input, code) => {
    expect(refusal(input)).toEqual({ code, transient: false });
  });

  test('when an emoji title is 100 characters, then it fits (characters, not UTF-16 units)', () => {
    expect(refusal({ title: '🍋'.repeat(100) })).toBeUndefined();
  });
});

describe('media_source', () => {
  test('when a video pin names no cover image, then the cover is a key frame (0 by default); with one, the image URL', () => {
    expect(pinterestMediaSource({ kind: 'video', mediaId: '9' })).toEqual({
      source_type: 'video_id',
      media_id: '9',
      cover_image_key_frame_time: 0,
    });
    expect(
      pinterestMediaSource({
        kind: 'video',
        mediaId: '9',
        coverImageUrl: 'https://e.com/c.jpg',
        coverKeyFrameSeconds: 3,
      }),
    ).toEqual({
      source_type: 'video_id',
      media_id: '9',
      cover_image_url: 'https://e.com/c.jpg',
    });
  });
});

describe('Pinterest media targets', () => {
  test('when a pin has one image, several images or a video, then its media rules are the image pin, the carousel or the video pin', () => {
    expect(mediaTargetOf('pinterest', 'image', 1)).toBe('pinterest.image');
    expect(mediaTargetOf('pinterest', 'image', 3)).toBe('pinterest.carousel_image');
    expect(mediaTargetOf('pinterest', 'video', 1)).toBe('pinterest.video');
    expect(MEDIA_RULES['pinterest.carousel_image'].items).toEqual({ min: 2, max: 5 });
    expect(MEDIA_RULES['pinterest.video'].durationSec).toEqual({ min: 4, max: 900 });
  });
});
