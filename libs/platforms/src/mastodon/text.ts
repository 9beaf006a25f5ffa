import { MASTODON_URL_LENGTH } from '@postbus/contracts';
import { graphemeLength } from '../bluesky/text';

/** A link with its scheme, as Mastodon's composer and StatusLengthValidator find them; trailing punctuation is not part of it. */
const URL_RE = /https?:\/\/[^\s<>"]+/gi;
const TRAILING = /[.,;:!?'")\]}]+$/;
/** `@user@domain`: only `@user` counts (Account::MENTION_RE); a bare `@user` counts as it is. */
const MENTION_RE = /(^|[^\/\w])@(\w+)@[\w.-]+\w/gu;

/**
 * Characters a status uses the way Mastodon counts them (https://docs.joinmastodon.org/user/posting/#text):
 * every URL counts 23 characters whatever its length, a mention of a remote account counts its
 * username only (not `@domain`), the rest counts by grapheme, and the content warning counts too.
 */
export function mastodonTextLength(text: string, spoilerText = ''): number {
  const countable = text
    .replace(URL_RE, (url) => {
      const tail = TRAILING.exec(url)?.[0] ?? '';
      return 'x'.repeat(MASTODON_URL_LENGTH) + tail;
    })
    .replace(MENTION_RE, (_m, before: string, user: string) => `${before}@${user}`);
  return graphemeLength(countable) + graphemeLength(spoilerText);
}
