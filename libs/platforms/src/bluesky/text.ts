/**
 * Bluesky post text as the protocol counts it: the 300 limit is in graphemes, and rich-text
 * facets (links, mentions, hashtags) address the text by UTF-8 byte offsets.
 * https://docs.bsky.app/docs/advanced-guides/post-richtext
 * https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json (maxGraphemes 300, maxLength 3000)
 */

import { BLUESKY_TEXT_MAX, BLUESKY_TEXT_MAX_BYTES } from '@postbus/contracts';
import tldList from 'tlds';

export const BLUESKY_TEXT_MAX_GRAPHEMES = BLUESKY_TEXT_MAX;
export { BLUESKY_TEXT_MAX_BYTES };
/** app.bsky.richtext.facet#tag: maxGraphemes 64 (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/richtext/facet.json). */
const TAG_MAX_GRAPHEMES = 64;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string };

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: FacetFeature[];
}

/** A mention found in the text, before its handle is resolved to a DID. */
export interface FoundMention {
  handle: string;
  index: Facet['index'];
}

const MENTION = /(^|\s|\()(@)([a-zA-Z0-9.-]+)(\b)/g;
const LINK = /(^|\s|\()((https?:\/\/[\S]+)|((?<domain>[a-z][a-z0-9]*(\.[a-z0-9]+)+)[\S]*))/gim;
const TAG =
  /(^|\s)[#＃]((?!\ufe0f)[^\s\u00AD\u2060\u200A\u200B\u200C\u200D\u20e2]*[^\d\s\p{P}\u00AD\u2060\u200A\u200B\u200C\u200D\u20e2]+[^\s\u00AD\u2060\u200A\u200B\u200C\u200D\u20e2]*)?/gu;
/** A handle is a domain name: labels of letters, digits and hyphens, at least two, the last not starting with a digit. */
const HANDLE = /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

const byteOffset = (text: string, charIndex: number) => Buffer.byteLength(text.slice(0, charIndex), 'utf8');
const span = (text: string, start: number, end: number) => ({
  byteStart: byteOffset(text, start),
  byteEnd: byteOffset(text, end),
});

/** @handle mentions, in order; their DIDs are looked up separately (com.atproto.identity.resolveHandle). */
export function findMentions(text: string): FoundMention[] {
  const out: FoundMention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const handle = m[3].replace(/[.]+$/, '');
    if (!HANDLE.test(handle) || !handle.includes('.')) continue;
    const start = m.index + m[1].length;
    out.push({ handle, index: span(text, start, start + 1 + handle.length) });
  }
  return out;
}

/** Bare domains are links only with a top-level domain IANA lists (the `tlds` package, as the official client checks them). */
const TLDS = new Set<string>(tldList);

/** Links: http(s) URLs, and bare domains with a known TLD (given https://), trailing punctuation left out. */
export function findLinks(text: string): Facet[] {
  const out: Facet[] = [];
  for (const m of text.matchAll(LINK)) {
    let uri = m[2];
    if (!uri.startsWith('http')) {
      const domain = m.groups?.domain ?? '';
      if (!TLDS.has(domain.split('.').pop()!.toLowerCase())) continue;
      uri = `https://${uri}`;
    }
    const start = m.index + m[1].length;
    let end = start + m[2].length;
    // Punctuation ending a sentence is not part of the link, nor a closing parenthesis without an opening one.
    if (/[.,;:!?]$/.test(uri)) {
      uri = uri.slice(0, -1);
      end--;
    }
    if (/[)]$/.test(uri) && !uri.includes('(')) {
      uri = uri.slice(0, -1);
      end--;
    }
    out.push({ index: span(text, start, end), features: [{ $type: 'app.bsky.richtext.facet#link', uri }] });
  }
  return out;
}

/** #hashtags (not numbers alone), trailing punctuation left out, at most 64 graphemes. */
export function findTags(text: string): Facet[] {
  const out: Facet[] = [];
  for (const m of text.matchAll(TAG)) {
    const body = m[2];
    if (!body) continue;
    const tag = body.trim().replace(/\p{P}+$/gu, '');
    if (!tag || graphemeLength(tag) > TAG_MAX_GRAPHEMES) continue;
    const start = m.index + m[1].length;
    out.push({
      index: span(text, start, start + 1 + tag.length),
      features: [{ $type: 'app.bsky.richtext.facet#tag', tag }],
    });
  }
  return out;
}

/**
 * Every facet of the text, ordered by position: links, tags, and the mentions whose handles
 * `didOf` resolves (a handle that does not resolve stays plain text, as in the Bluesky app).
 */
export async function facetsOf(text: string, didOf: (handle: string) => Promise<string | undefined>): Promise<Facet[]> {
  const mentions: Facet[] = [];
  for (const m of findMentions(text)) {
    const did = await didOf(m.handle);
    if (did) mentions.push({ index: m.index, features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
  }
  return [...mentions, ...findLinks(text), ...findTags(text)].sort((a, b) => a.index.byteStart - b.index.byteStart);
}
