import fc from 'fast-check';
import { THREADS_TEXT_MAX, threadsTextLength } from '../src';

/** Grapheme by grapheme, as Threads counts: the definition the quick path must agree with. */
function byGraphemes(text: string): number {
  let length = 0;
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)) {
    length += /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(segment)
      ? Buffer.byteLength(segment, 'utf8')
      : [...segment].length;
  }
  return length;
}

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
    ['a letter outside the BMP counts one', '𝒜bc', 3],
    ['a combining accent counts as a code point of its own', 'e\u0301', 2],
    ['a line break of CR LF counts two', 'a\r\nb', 4],
  ])('when %s, then %j is %i', (_what, text, length) => {
    expect(threadsTextLength(text)).toBe(length);
  });

  test('when any text is counted, then the answer is the grapheme-by-grapheme count', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        (a, b) => threadsTextLength(a + b) === byGraphemes(a + b),
      ),
    );
  });

  test('when the limit is asked, then it is 500', () => {
    expect(THREADS_TEXT_MAX).toBe(500);
  });
});
