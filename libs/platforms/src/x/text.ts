import { X_TEXT_MAX, X_URL_LENGTH } from '@postbus/contracts';

/**
 * twitter-text's v3 configuration (https://docs.x.com/fundamentals/counting-characters,
 * https://github.com/twitter/twitter-text/blob/master/config/v3.json): weights in hundredths of a
 * character; code points in these ranges (Latin, general punctuation) weigh 1, every other code
 * point 2 (CJK, most symbols), an emoji sequence 2 whatever it is made of, a URL 23.
 */
const SCALE = 100;
const DEFAULT_WEIGHT = 200;
const LIGHT_RANGES: readonly [number, number][] = [
  [0, 4351],
  [8192, 8205],
  [8208, 8223],
  [8242, 8247],
];

/** A URL with its scheme, or a bare host under a common top-level domain, as X's composer links them; trailing punctuation is not part of it. */
const URL_RE =
  /\bhttps?:\/\/[^\s<>"]+|\b(?:www\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|io|co|dev|app|me|info|biz|edu|gov|ly|gl|tv|ai|uk|de|fr|jp|us|eu)\b(?:\/[^\s<>"]*)?/gi;
const TRAILING = /[.,;:!?'")\]}]+$/;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

function weightOf(codePoint: number): number {
  return LIGHT_RANGES.some(([lo, hi]) => codePoint >= lo && codePoint <= hi) ? SCALE : DEFAULT_WEIGHT;
}

/**
 * Characters a post uses as X counts them (its "weighted length"), which must be at most 280: text
 * normalized to NFC, every URL 23, each emoji 2, CJK and other heavy code points 2, the rest 1.
 * The official twitter-text npm package does this too, but it has had no release since 2020 and
 * still ships the v2 URL and emoji tables, so the documented weighting is implemented here.
 */
export function xTextLength(text: string): number {
  let weighted = 0;
  const rest = text.normalize('NFC').replace(URL_RE, (url) => {
    const tail = TRAILING.exec(url)?.[0] ?? '';
    weighted += X_URL_LENGTH * SCALE;
    return `\u0000${tail}`;
  });
  for (const { segment } of segmenter.segment(rest)) {
    if (segment === '\u0000') continue;
    if (EMOJI.test(segment)) {
      weighted += DEFAULT_WEIGHT;
      continue;
    }
    for (const ch of segment) weighted += ch === '\u0000' ? 0 : weightOf(ch.codePointAt(0)!);
  }
  return Math.ceil(weighted / SCALE);
}

/** Whether the text fits one post. */
export function fitsXPost(text: string): boolean {
  return xTextLength(text) <= X_TEXT_MAX;
}
