/**
 * The Graph API version each Meta platform family is called with, in one setting per family,
 * and the hosts it is appended to. Versions live about two years: v21.0 is served until
 * 21 January 2027, v26.0 (29 July 2026) is the newest stable one
 * (https://developers.facebook.com/docs/graph-api/changelog/versions/).
 * Threads has its own versioning (https://developers.facebook.com/docs/threads/overview).
 */

/** Facebook Pages and Instagram (graph.facebook.com, graph.instagram.com). */
export const META_GRAPH_VERSION_DEFAULT = 'v26.0';
/** Threads (graph.threads.net). */
export const THREADS_API_VERSION_DEFAULT = 'v1.0';

const VERSION = /^v\d{1,3}\.\d{1,2}$/;
/** A URL path that already names a version, e.g. `https://graph.facebook.com/v21.0`. */
const VERSIONED_PATH = /\/v\d+(\.\d+)?(\/|$)/;

/** The shape of a config variable (structurally `VarSpec` of @postbus/kit). */
interface VersionVarSpec<T> {
  doc: string;
  default?: T;
  parse(raw: string): T;
}

export function parseGraphVersion(raw: string): string {
  if (!VERSION.test(raw)) throw new Error('expected a Graph API version such as v26.0');
  return raw;
}

/** `v21.0` < `v26.0`, compared as numbers. */
export function compareGraphVersions(a: string, b: string): number {
  const [am, an] = a.slice(1).split('.').map(Number);
  const [bm, bn] = b.slice(1).split('.').map(Number);
  return am - bm || an - bn;
}

function versionVar(doc: string, def: string): VersionVarSpec<string> {
  return { doc, default: def, parse: parseGraphVersion };
}

/** The two version settings, spread into each service's config variables. */
export const metaVersionVars = {
  META_GRAPH_VERSION: versionVar(
    "Graph API version for Facebook and Instagram calls, appended to their hosts; keep it within Meta's two-year support window (developers.facebook.com/docs/graph-api/changelog/versions)",
    META_GRAPH_VERSION_DEFAULT,
  ),
  THREADS_API_VERSION: versionVar(
    'Threads API version, appended to the Threads host (developers.facebook.com/docs/threads)',
    THREADS_API_VERSION_DEFAULT,
  ),
};

/**
 * A Meta host setting (the sandbox when empty). It must not carry a version: the version
 * comes from META_GRAPH_VERSION / THREADS_API_VERSION, so one setting moves every call.
 */
export function metaHostVar(doc: string): VersionVarSpec<string> {
  return {
    doc,
    default: '',
    parse(raw) {
      const url = new URL(raw); // throws on a malformed URL
      if (VERSIONED_PATH.test(url.pathname))
        throw new Error(
          'must not name a version (the version comes from META_GRAPH_VERSION or THREADS_API_VERSION); give the host only',
        );
      return raw.replace(/\/+$/, '');
    },
  };
}

/** `https://graph.facebook.com` + `v26.0` → `https://graph.facebook.com/v26.0`. */
export function versionedBase(host: string, version: string): string {
  return `${host.replace(/\/+$/, '')}/${version}`;
}
