/**
 * The Open Graph metadata of a web page (https://ogp.me), read as Bluesky's link cards need it
 * (https://docs.bsky.app/docs/advanced-guides/posts#website-card-embeds): title, description and
 * image. The page is hostile input: the scan is one pass over at most the bytes the caller read,
 * each search starts where the previous ended (no backtracking across the page), and it stops
 * at the end of `<head>`.
 */

export interface PageMeta {
  title?: string;
  description?: string;
  /** The image's address as the page wrote it (relative or absolute). */
  image?: string;
}

/** Where each field is read from, the first present winning: Open Graph, then Twitter cards, then plain HTML. */
const SOURCES: Record<keyof PageMeta, string[]> = {
  title: ['og:title', 'twitter:title'],
  description: ['og:description', 'twitter:description', 'description'],
  image: ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'],
};
/** Elements whose content is text to skip, not markup (a `<meta` inside a script is no tag). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'template', 'noscript']);
const TAG_NAME = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/y;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export function readPageMeta(html: string): PageMeta {
  const found = new Map<string, string>();
  let title: string | undefined;
  let i = 0;
  while ((i = html.indexOf('<', i)) >= 0) {
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    TAG_NAME.lastIndex = i;
    const tag = TAG_NAME.exec(html);
    if (!tag) {
      i++;
      continue;
    }
    const name = tag[2].toLowerCase();
    const end = tagEnd(html, i + tag[0].length);
    if (end < 0 || (tag[1] && name === 'head') || (!tag[1] && name === 'body')) break;
    if (!tag[1] && name === 'meta') noteMeta(html.slice(i + tag[0].length, end), found);
    i = end + 1;
    if (!tag[1] && (name === 'title' || RAW_TEXT.has(name))) {
      const close = closingTag(html, name, i);
      if (name === 'title' && title === undefined) title = html.slice(i, close < 0 ? html.length : close);
      if (close < 0) break;
      i = close;
    }
  }
  const pick = (field: keyof PageMeta) => SOURCES[field].map((key) => found.get(key)).find((v) => v);
  return {
    ...optional('title', pick('title') ?? (title !== undefined ? cleanText(decodeEntities(title)) : undefined)),
    ...optional('description', pick('description')),
    ...optional('image', pick('image')),
  };
}

function optional<K extends keyof PageMeta>(key: K, value: string | undefined): Pick<PageMeta, K> {
  return (value ? { [key]: value } : {}) as Pick<PageMeta, K>;
}

/** The `>` closing the tag opened before `from`, quotes respected; -1 when the page ends first. */
function tagEnd(html: string, from: number): number {
  let quote: string | undefined;
  for (let j = from; j < html.length; j++) {
    const c = html[j];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j;
  }
  return -1;
}

function closingTag(html: string, name: string, from: number): number {
  const close = new RegExp(`</${name}[\\s>]`, 'gi');
  close.lastIndex = from;
  return close.exec(html)?.index ?? -1;
}

/** `<meta property|name="…" content="…">`: the first value of each key is kept. */
function noteMeta(attributes: string, found: Map<string, string>): void {
  let key: string | undefined;
  let content: string | undefined;
  for (const m of attributes.matchAll(ATTRIBUTE)) {
    const attr = m[1].toLowerCase();
    const value = m[2] ?? m[3] ?? m[4] ?? '';
    if ((attr === 'property' || attr === 'name') && !key) key = value.trim().toLowerCase();
    else if (attr === 'content') content = value;
  }
  if (key && content !== undefined && !found.has(key)) {
    const text = cleanText(decodeEntities(content));
    if (text) found.set(key, text);
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** HTML character references: the five XML ones, &nbsp; and numeric ones; others stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

/** Runs of white space as one space, no control characters, trimmed. */
function cleanText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
