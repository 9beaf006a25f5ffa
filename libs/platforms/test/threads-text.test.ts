import { THREADS_TEXT_MAX, threadsTextLength } from '../src';

describe('threadsTextLength', () => {
  test.each([
    ['plain ASCII counts one per character', 'hello', 5],
    ['accented letters count one each', 'café crème', 10],
    ['CJK characters count one each', '日本語', 3],
    ['an emoji counts its UTF-8 bytes', '👍', 4],
    ['an emoji with a skin tone counts both code points', '👍🏽', 8],
    ['a flag counts both regional indicators', '🇫🇷', 8],
    ['a heart with a variation selector counts 6', '❤️', 6],
    ['text and emoji add up', 'hi 👋', 7],
  ])('when %s, then %j is %i', (_what, text, length) => {
    expect(threadsTextLength(text)).toBe(length);
  });

  test('when the limit is asked, then it is 500', () => {
    expect(THREADS_TEXT_MAX).toBe(500);
  });
});
