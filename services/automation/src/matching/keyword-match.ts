import type { AutomationRule } from '@postbus/contracts';

/** Words: letters (with their marks), digits and _, optionally led by # or @ (hashtags, mentions). */
const WORD = /[#@]?[\p{L}\p{M}\p{N}_]+/gu;
/** Scripts written without spaces between words: their keywords match anywhere in the text. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function words(text: string): string[] {
  return normalizeText(text).match(WORD) ?? [];
}

/** A keyword word matches a text word; `giveaway` also matches `#giveaway`, while `#giveaway` needs the hash. */
function sameWord(keywordWord: string, textWord: string): boolean {
  return /^[#@]/.test(keywordWord) ? keywordWord === textWord : keywordWord === textWord.replace(/^[#@]/, '');
}

/** Whether `keyword` occurs in the text as a whole word or phrase (case-insensitive); emoji and unspaced scripts match as substrings. */
export function containsKeyword(text: string, keyword: string): boolean {
  const kw = words(keyword);
  if (!kw.length || UNSPACED.test(keyword)) return normalizeText(text).includes(normalizeText(keyword));
  const tw = words(text);
  for (let i = 0; i + kw.length <= tw.length; i++) if (kw.every((w, j) => sameWord(w, tw[i + j]))) return true;
  return false;
}

/** Whether the whole comment is the keyword, ignoring case, spacing and punctuation around the words. */
export function isExactly(text: string, keyword: string): boolean {
  const kw = words(keyword);
  if (!kw.length) return normalizeText(text) === normalizeText(keyword);
  const tw = words(text);
  return tw.length === kw.length && kw.every((w, j) => sameWord(w, tw[j]));
}

/**
 * The keywords of a trigger that a comment satisfies: `any` — those it contains (at least one);
 * `all` — every keyword; `exact` — the one the whole comment is. Null when the trigger does not fire.
 */
export function matchTrigger(text: string, trigger: AutomationRule['trigger']): string[] | null {
  if (trigger.match === 'exact') {
    const hit = trigger.keywords.find((k) => isExactly(text, k));
    return hit === undefined ? null : [hit];
  }
  const found = trigger.keywords.filter((k) => containsKeyword(text, k));
  if (trigger.match === 'all') return found.length === trigger.keywords.length ? found : null;
  return found.length ? found : null;
}
