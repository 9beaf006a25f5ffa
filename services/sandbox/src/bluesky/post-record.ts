/**
 * The app.bsky.feed.post record as the reference PDS validates it before a write, with the
 * messages of @atproto/lexicon ("Invalid app.bsky.feed.post record: Record/text must not be
 * longer than 300 graphemes"). Schemas:
 * https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json,
 * …/embed/images.json, …/embed/video.json, …/embed/external.json, …/richtext/facet.json.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (s: string) => [...segmenter.segment(s)].length;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export class InvalidRecord extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(message: string): never {
  throw new InvalidRecord(message);
}

function obj(v: unknown, path: string): Obj {
  if (!isObj(v)) fail(`${path} must be an object`);
  return v;
}

function required(o: Obj, key: string, path: string): unknown {
  if (o[key] === undefined) fail(`${path} must have the property "${key}"`);
  return o[key];
}

function str(v: unknown, path: string, max?: { bytes?: number; graphemes?: number }): string {
  if (typeof v !== 'string') fail(`${path} must be a string`);
  if (max?.bytes !== undefined && Buffer.byteLength(v) > max.bytes)
    fail(`${path} must not be longer than ${max.bytes} characters`);
  if (max?.graphemes !== undefined && graphemes(v) > max.graphemes)
    fail(`${path} must not be longer than ${max.graphemes} graphemes`);
  return v;
}

function arr(v: unknown, path: string, maxLength?: number): unknown[] {
  if (!Array.isArray(v)) fail(`${path} must be an array`);
  if (maxLength !== undefined && v.length > maxLength) fail(`${path} must not have more than ${maxLength} elements`);
  return v;
}

function int(v: unknown, path: string, minimum = 0): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(`${path} must be an integer`);
  if (v < minimum) fail(`${path} can not be less than ${minimum}`);
  return v;
}

/** A blob reference ({ $type: 'blob', ref: { $link }, mimeType, size }): https://atproto.com/specs/data-model#blob-type */
export interface BlobUse {
  cid: string;
  mimeType: string;
  size: number;
  path: string;
}

/** A blob field's lexicon constraints: `accept` (a type or `type/*`) and `maxSize` in bytes. */
interface BlobRule {
  accept: string;
  maxSize: number;
}
const IMAGE: BlobRule = { accept: 'image/*', maxSize: 1_000_000 };
const VIDEO: BlobRule = { accept: 'video/mp4', maxSize: 100_000_000 };

/** `Record/embed/images/0/image` as the PDS names it now: `$.record.embed.images[0].image`. */
const lexPath = (path: string) =>
  `$.${path
    .replace(/^Record/, 'record')
    .replace(/\/(\d+)/g, '[$1]')
    .replace(/\//g, '.')}`;

function blob(v: unknown, path: string, uses: BlobUse[], rule: BlobRule): void {
  const b = obj(v, path);
  const ref = isObj(b.ref) ? b.ref : undefined;
  if (
    b.$type !== 'blob' ||
    typeof ref?.$link !== 'string' ||
    typeof b.mimeType !== 'string' ||
    typeof b.size !== 'number'
  )
    fail(`${path} should be a blob ref`);
  if (b.size > rule.maxSize) fail(`blob too big (maximum ${rule.maxSize}, got ${b.size}) at ${lexPath(path)}`);
  const accepted = rule.accept.endsWith('/*')
    ? b.mimeType.startsWith(rule.accept.slice(0, -1))
    : b.mimeType === rule.accept;
  if (!accepted) fail(`Expected "${rule.accept}" (got "${b.mimeType}") at ${lexPath(path)}.mimeType`);
  uses.push({ cid: ref.$link, mimeType: b.mimeType, size: b.size, path });
}

function aspectRatio(v: unknown, path: string): void {
  if (v === undefined) return;
  const a = obj(v, path);
  int(required(a, 'width', path), `${path}/width`, 1);
  int(required(a, 'height', path), `${path}/height`, 1);
}

function strongRef(v: unknown, path: string): void {
  const r = obj(v, path);
  str(required(r, 'uri', path), `${path}/uri`);
  str(required(r, 'cid', path), `${path}/cid`);
}

function embed(v: unknown, uses: BlobUse[]): string {
  const path = 'Record/embed';
  const e = obj(v, path);
  switch (e.$type) {
    case 'app.bsky.embed.images': {
      const images = arr(required(e, 'images', path), `${path}/images`, 4);
      images.forEach((item, i) => {
        const p = `${path}/images/${i}`;
        const image = obj(item, p);
        blob(required(image, 'image', p), `${p}/image`, uses, IMAGE);
        str(required(image, 'alt', p), `${p}/alt`);
        aspectRatio(image.aspectRatio, `${p}/aspectRatio`);
      });
      return 'images';
    }
    case 'app.bsky.embed.video': {
      blob(required(e, 'video', path), `${path}/video`, uses, VIDEO);
      if (e.alt !== undefined) str(e.alt, `${path}/alt`, { bytes: 10_000, graphemes: 1000 });
      aspectRatio(e.aspectRatio, `${path}/aspectRatio`);
      return 'video';
    }
    case 'app.bsky.embed.external': {
      const p = `${path}/external`;
      const ext = obj(required(e, 'external', path), p);
      str(required(ext, 'uri', p), `${p}/uri`);
      str(required(ext, 'title', p), `${p}/title`);
      str(required(ext, 'description', p), `${p}/description`);
      if (ext.thumb !== undefined) blob(ext.thumb, `${p}/thumb`, uses, IMAGE);
      return 'external';
    }
    case 'app.bsky.embed.record':
    case 'app.bsky.embed.recordWithMedia':
      return String(e.$type).slice('app.bsky.embed.'.length);
    default:
      return fail(
        `${path} $type must be one of app.bsky.embed.images, app.bsky.embed.video, app.bsky.embed.external, app.bsky.embed.record, app.bsky.embed.recordWithMedia`,
      );
  }
}

/** Checks a post record; answers the blobs it references (the PDS then checks it holds each) and its embed kind. */
export function validatePostRecord(value: unknown): { blobs: BlobUse[]; embed: string | null } {
  const record = obj(value, 'Record');
  str(required(record, 'text', 'Record'), 'Record/text', { bytes: 3000, graphemes: 300 });
  const createdAt = str(required(record, 'createdAt', 'Record'), 'Record/createdAt');
  if (!DATETIME.test(createdAt) || Number.isNaN(Date.parse(createdAt)))
    fail('Record/createdAt must be an valid atproto datetime (both RFC-3339 and ISO-8601)');
  if (record.facets !== undefined) {
    arr(record.facets, 'Record/facets').forEach((f, i) => {
      const p = `Record/facets/${i}`;
      const facet = obj(f, p);
      const index = obj(required(facet, 'index', p), `${p}/index`);
      int(required(index, 'byteStart', `${p}/index`), `${p}/index/byteStart`);
      int(required(index, 'byteEnd', `${p}/index`), `${p}/index/byteEnd`);
      arr(required(facet, 'features', p), `${p}/features`);
    });
  }
  if (record.reply !== undefined) {
    const reply = obj(record.reply, 'Record/reply');
    strongRef(required(reply, 'root', 'Record/reply'), 'Record/reply/root');
    strongRef(required(reply, 'parent', 'Record/reply'), 'Record/reply/parent');
  }
  if (record.langs !== undefined) arr(record.langs, 'Record/langs', 3).forEach((l, i) => str(l, `Record/langs/${i}`));
  const blobs: BlobUse[] = [];
  const kind = record.embed === undefined ? null : embed(record.embed, blobs);
  return { blobs, embed: kind };
}
