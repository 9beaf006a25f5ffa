import { isNetError, safeRequest } from '@postbus/net';
import type { MediaAccess } from '../media/media-access';
import { readPageMeta } from './page-meta';
import { findLinks, graphemeLength } from './text';

/**
 * Link cards (app.bsky.embed.external, https://docs.bsky.app/docs/advanced-guides/posts#website-card-embeds):
 * the client reads the page's Open Graph metadata itself and uploads its image as the card's thumb.
 * The page is named by the post's author, so every read goes through @postbus/net and is bounded.
 */

/** app.bsky.embed.external#external thumb: an image of at most 1,000,000 bytes (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/external.json). */
export const BLUESKY_THUMB_MAX_BYTES = 1_000_000;
/** Bytes of a page read at most: the metadata lives in `<head>`, at the top. */
export const LINK_PAGE_MAX_BYTES = 512 * 1024;
/** Longest wait for a page or its image, whatever the caller allows. */
export const LINK_PREVIEW_TIMEOUT_MS = 10_000;
const REDIRECTS_MAX = 5;
/** A card's title and description, cut to what a card shows (the lexicon sets no limit; Bluesky's app cuts them further). */
const TITLE_MAX_GRAPHEMES = 300;
const DESCRIPTION_MAX_GRAPHEMES = 1000;
const USER_AGENT = 'Mozilla/5.0 (compatible; PostbusLinkPreview/1.0)';

export interface LinkPreview {
  uri: string;
  title: string;
  description: string;
  /** The page's image, when it has one Bluesky takes as a thumb. */
  image?: { bytes: Uint8Array; contentType: string };
  /** Why the page's image is not there, when it named one. */
  imageSkipped?: string;
}

/** The page could not be read, or is no web page: the post goes out without a card. */
export class LinkPreviewUnavailable extends Error {
  constructor(
    readonly uri: string,
    reason: string,
  ) {
    super(`${uri} ${reason}`);
    this.name = 'LinkPreviewUnavailable';
  }
}

export interface LinkPreviewOptions {
  /** Which addresses may be read (loopback only in tests and development). */
  access: Pick<MediaAccess, 'allowLoopback' | 'resolve'>;
  /** Deadline of each read (page, image); at most LINK_PREVIEW_TIMEOUT_MS. */
  timeoutMs?: number;
}

/**
 * The link a post's card shows, as Bluesky's app picks it: the one asked for, none when `false`,
 * else the first link of the text when the post carries no media.
 */
export function linkCardUri(text: string, asked: unknown, hasMedia: boolean): string | undefined {
  if (asked === false) return undefined;
  if (typeof asked === 'string' && asked) return asked;
  if (hasMedia) return undefined;
  const [first] = findLinks(text);
  const feature = first?.features[0];
  return feature?.$type === 'app.bsky.richtext.facet#link' ? feature.uri : undefined;
}

/** Reads the page's title, description and image; throws LinkPreviewUnavailable when the page cannot serve a card. */
export async function readLinkPreview(uri: string, opts: LinkPreviewOptions): Promise<LinkPreview> {
  const timeoutMs = Math.min(opts.timeoutMs ?? LINK_PREVIEW_TIMEOUT_MS, LINK_PREVIEW_TIMEOUT_MS);
  const page = await read(uri, opts, { timeoutMs, maxBytes: LINK_PAGE_MAX_BYTES, accept: 'text/html' }, 'truncate');
  if (page.status < 200 || page.status > 299) throw new LinkPreviewUnavailable(uri, `answered HTTP ${page.status}`);
  const type = String(page.headers['content-type'] ?? '').toLowerCase();
  if (!type.includes('text/html') && !type.includes('application/xhtml+xml'))
    throw new LinkPreviewUnavailable(uri, `is not a web page (${type.split(';')[0] || 'no content type'})`);
  const meta = readPageMeta(decode(page.body, type));
  const preview: LinkPreview = {
    uri,
    title: cut(meta.title ?? '', TITLE_MAX_GRAPHEMES),
    description: cut(meta.description ?? '', DESCRIPTION_MAX_GRAPHEMES),
  };
  if (!meta.image) return preview;
  const imageUrl = URL.parse(meta.image, page.url.href)?.toString();
  if (!imageUrl) return { ...preview, imageSkipped: `${meta.image.slice(0, 200)} is not a valid image address` };
  try {
    return { ...preview, image: await readImage(imageUrl, opts, timeoutMs) };
  } catch (err) {
    if (!(err instanceof LinkPreviewUnavailable)) throw err;
    return { ...preview, imageSkipped: err.message };
  }
}

async function readImage(
  url: string,
  opts: LinkPreviewOptions,
  timeoutMs: number,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const res = await read(url, opts, { timeoutMs, maxBytes: BLUESKY_THUMB_MAX_BYTES, accept: 'image/*' }, 'fail');
  if (res.status < 200 || res.status > 299) throw new LinkPreviewUnavailable(url, `answered HTTP ${res.status}`);
  const contentType = imageTypeOf(res.body);
  if (!contentType) throw new LinkPreviewUnavailable(url, 'is not a JPEG, PNG, WebP or GIF image');
  return { bytes: new Uint8Array(res.body), contentType };
}

async function read(
  url: string,
  opts: LinkPreviewOptions,
  limits: { timeoutMs: number; maxBytes: number; accept: string },
  oversize: 'fail' | 'truncate',
) {
  try {
    return await safeRequest(url, {
      headers: { accept: limits.accept, 'user-agent': USER_AGENT, 'accept-encoding': 'identity' },
      allowLoopback: opts.access.allowLoopback,
      resolve: opts.access.resolve,
      maxRedirects: REDIRECTS_MAX,
      timeoutMs: limits.timeoutMs,
      maxResponseBytes: limits.maxBytes,
      oversize,
    });
  } catch (err) {
    if (!isNetError(err)) throw err;
    const why =
      err.kind === 'too_large'
        ? `is larger than ${limits.maxBytes.toLocaleString('en')} bytes`
        : `could not be read (${err.message})`;
    throw new LinkPreviewUnavailable(url, why);
  }
}

/** The page's text in the charset its content type names (UTF-8 when it names none or one we do not know). */
function decode(body: Buffer, contentType: string): string {
  const charset = /charset="?([\w-]+)/.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** The image type its first bytes declare: the kinds Bluesky shows as thumbs. */
function imageTypeOf(b: Buffer): string | undefined {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  return undefined;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function cut(text: string, max: number): string {
  if (graphemeLength(text) <= max) return text;
  let out = '';
  let n = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (++n >= max) break;
    out += segment;
  }
  return `${out}…`;
}
