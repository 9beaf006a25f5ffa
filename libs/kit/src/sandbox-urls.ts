import { url, type VarSpec } from './config';

/** SANDBOX_URL, spread into the config of each service that calls platforms. */
export const sandboxVars = {
  SANDBOX_URL: url('The platform sandbox; every platform URL left empty is a path under it', 'http://127.0.0.1:4010'),
};

/** A platform URL that, left empty, is a path under SANDBOX_URL (a trailing slash is dropped, as for every URL). */
export function sandboxDefault(doc: string): VarSpec<string> {
  return { ...url(`${doc} (empty: under SANDBOX_URL)`), default: '' };
}

/**
 * A platform URL that, left empty, is a path under SANDBOX_URL, kept to the letter: an OAuth
 * endpoint is registered with the platform as written, trailing slash included.
 */
export function exactSandboxDefault(doc: string): VarSpec<string> {
  return {
    doc,
    default: '',
    parse(raw) {
      new URL(raw); // throws on a malformed URL
      return raw;
    },
  };
}

/** Points every platform URL left empty at its path under SANDBOX_URL. */
export function fillSandboxUrls<C extends { SANDBOX_URL: string }>(
  config: C,
  paths: { readonly [K in keyof C as C[K] extends string ? K : never]?: string },
): void {
  const urls = config as unknown as Record<string, string>;
  for (const [name, path] of Object.entries(paths) as [string, string][]) urls[name] ||= `${config.SANDBOX_URL}${path}`;
}
