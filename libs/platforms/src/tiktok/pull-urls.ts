/**
 * What TikTok pulls itself (PULL_FROM_URL): only URLs under a domain or URL prefix verified for
 * the app in the developer portal (app → URL properties,
 * https://developers.tiktok.com/doc/set-up-development-configuration); anything else fails with
 * `url_ownership_unverified` (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide).
 * Photos can only be pulled (https://developers.tiktok.com/doc/content-posting-api-reference-photo-post),
 * and only as JPEG or WebP (the media transfer guide's image restrictions).
 */

/** Where to verify a prefix, quoted in every refusal that asks for one. */
export const TIKTOK_URL_PROPERTIES_PAGE = 'https://developers.tiktok.com/doc/set-up-development-configuration';

/** The shape of a config variable (structurally `VarSpec` of @postbus/kit). */
interface PrefixesVarSpec {
  doc: string;
  default: string[];
  parse(raw: string): string[];
}

/** Comma-separated absolute http(s) URL prefixes; a malformed one fails the boot rather than matching nothing. */
export function parseTikTokPullPrefixes(raw: string): string[] {
  const prefixes = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of prefixes) {
    let url: URL;
    try {
      url = new URL(p);
    } catch {
      throw new Error(`${JSON.stringify(p)} is not an absolute URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`${JSON.stringify(p)} must be an http(s) URL`);
  }
  return prefixes;
}

/** The one setting, spread into the config of each service that needs it (posts refuses, the publisher pulls). */
export const tiktokPullVars = {
  TIKTOK_PULL_URL_PREFIXES: {
    doc: `Comma-separated media URL prefixes verified for the TikTok app (developer portal → URL properties, ${TIKTOK_URL_PROPERTIES_PAGE}): videos under them are pulled (PULL_FROM_URL), others uploaded (FILE_UPLOAD); TikTok photo posts are refused unless every photo is under one`,
    default: [],
    parse: parseTikTokPullPrefixes,
  } satisfies PrefixesVarSpec,
};

/**
 * Whether TikTok would pull `url` under one of `prefixes`: same scheme and host (a prefix
 * `https://cdn.example` never covers `https://cdn.example.evil`), and the path starting with the
 * prefix's path.
 */
export function isTikTokPullable(url: string, prefixes: readonly string[]): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  return prefixes.some((raw) => {
    let prefix: URL;
    try {
      prefix = new URL(raw);
    } catch {
      return false;
    }
    if (prefix.protocol !== target.protocol || prefix.host !== target.host || target.username || target.password)
      return false;
    return target.pathname.startsWith(prefix.pathname);
  });
}

export type TikTokPhotoFormat = 'jpeg' | 'webp' | 'other' | 'unknown';

const IMAGE_EXTENSION = /\.([a-z0-9]{2,5})$/i;

/** A photo's format from its stored content type when known, else from the link's extension. */
export function tiktokPhotoFormat(photo: { url: string; contentType?: string | null }): TikTokPhotoFormat {
  const type = photo.contentType?.split(';')[0].trim().toLowerCase();
  if (type) return type === 'image/jpeg' ? 'jpeg' : type === 'image/webp' ? 'webp' : 'other';
  let path = photo.url;
  try {
    path = new URL(photo.url).pathname;
  } catch {
    // not an absolute URL: judge the raw string
  }
  const ext = IMAGE_EXTENSION.exec(path)?.[1].toLowerCase();
  if (!ext) return 'unknown';
  return ext === 'jpg' || ext === 'jpeg' ? 'jpeg' : ext === 'webp' ? 'webp' : 'other';
}
