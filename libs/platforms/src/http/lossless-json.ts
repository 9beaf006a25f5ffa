/**
 * JSON from a platform, with 64-bit integers kept exact. TikTok sends post ids as JSON numbers
 * (`publicaly_available_post_id`, `list<int64>`), and `JSON.parse` rounds any integer beyond
 * 2^53: `7088122496758679353` becomes `7088122496758680000`, a wrong id and a broken permalink.
 *
 * Before the native parse, one linear pass wraps every integer literal outside a string whose
 * value is beyond Number.MAX_SAFE_INTEGER in quotes, so it arrives as its exact decimal string.
 * Safe integers, fractions and exponents are left as they are; text that is not JSON stays
 * not JSON (a literal with a leading zero or a stray character is not touched).
 */
export function parseLosslessJson(text: string): unknown {
  return JSON.parse(quoteUnsafeIntegers(text));
}

/** An integer token: `-?(0|[1-9][0-9]*)`, then no fraction or exponent. */
const INTEGER = /-?(?:0|[1-9]\d*)/y;
/** Longer than this many digits may be unsafe; shorter never is (MAX_SAFE_INTEGER has 16). */
const SAFE_DIGITS = 15;

export function quoteUnsafeIntegers(text: string): string {
  let out = '';
  let copiedUpTo = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = endOfString(text, i);
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const end = endOfNumber(text, i);
      const token = text.slice(i, end);
      if (isUnsafeInteger(text, token, end)) {
        out += `${text.slice(copiedUpTo, i)}"${token}"`;
        copiedUpTo = end;
      }
      i = end;
      continue;
    }
    i++;
  }
  return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}

/** Index just past the closing quote of the string opening at `start` (or the end of the text). */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return i;
}

/** Index just past the number-like run starting at `start` (digits, sign, dot, exponent). */
function endOfNumber(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && /[0-9eE.+-]/.test(text[i])) i++;
  return i;
}

function isUnsafeInteger(text: string, token: string, end: number): boolean {
  INTEGER.lastIndex = 0;
  const match = INTEGER.exec(token);
  if (!match || match[0].length !== token.length) return false; // a fraction, an exponent, or not a JSON number
  if (token.replace('-', '').length <= SAFE_DIGITS) return false;
  if (end < text.length && /[A-Za-z_]/.test(text[end])) return false; // part of something that is not JSON anyway
  return !Number.isSafeInteger(Number(token));
}
