/** Threads refuses a post whose text is longer than this (see threadsTextLength for how it counts). */
export const THREADS_TEXT_MAX = 500;

/** A carousel holds at most this many items (unverified in Meta's docs; the sandbox enforces the same). */
export const THREADS_CAROUSEL_MAX = 20;

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Length of a post's text as Threads counts it: one per character, except that an emoji
 * counts as its UTF-8 byte length (👍 is 4, 👍🏽 is 8, a flag is 8).
 */
export function threadsTextLength(text: string): number {
  // Without an emoji every grapheme counts its code points: no need to segment (the common case).
  if (!EMOJI.test(text)) return codePoints(text);
  let length = 0;
  for (const { segment } of segmenter.segment(text)) {
    length += EMOJI.test(segment) ? Buffer.byteLength(segment, 'utf8') : [...segment].length;
  }
  return length;
}

function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // a high surrogate followed by a low one is one code point in two UTF-16 units
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
