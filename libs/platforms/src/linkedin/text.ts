import { LINKEDIN_TEXT_MAX } from '@postbus/contracts';

/**
 * Characters the `little` text format reserves: each must be escaped with a backslash to be read as
 * plain text, even outside a mention or a template
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format).
 * A `#` that starts a word is left as it is: `#word` is little's HashtagElement, the hashtag the
 * person meant.
 */
const RESERVED = /[\\|{}@[\]()<>#*_~]/g;
const WORD_START = /[\p{L}\p{N}]/u;

/** A caption as Posts API commentary: reserved characters escaped, hashtags kept. */
export function linkedInCommentary(caption: string): string {
  return caption.replace(RESERVED, (c: string, at: number) =>
    c === '#' && WORD_START.test(caption.charAt(at + 1)) ? c : `\\${c}`,
  );
}

/** What a commentary reads as: escapes removed (the inverse of linkedInCommentary). */
export function linkedInPlainText(commentary: string): string {
  return commentary.replace(/\\([\\|{}@[\]()<>#*_~])/g, '$1');
}

/** Characters of a caption as the 3,000 of commentary are counted: UTF-16 code units of the text as it reads. */
export function linkedInTextLength(caption: string): number {
  return caption.length;
}

export function linkedInTextFits(caption: string): boolean {
  return linkedInTextLength(caption) <= LINKEDIN_TEXT_MAX;
}
