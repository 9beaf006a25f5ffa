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
  let length = 0;
  for (const { segment } of segmenter.segment(text)) {
    length += EMOJI.test(segment) ? Buffer.byteLength(segment, 'utf8') : [...segment].length;
  }
  return length;
}
