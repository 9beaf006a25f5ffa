import { isNetError, safeRequest, type Resolver } from '@postbus/net';
import { InvalidClientError } from './oauth-errors';
import type { OAuthClient } from './oauth-client';
import { isLoopbackHost, refusedRedirectUri } from './redirect-uri.rules';

export interface MetadataDocumentPolicy {
  /** Accept http://127.0.0.1 / localhost URLs and connect over loopback (tests and development). */
  allowLoopback: boolean;
  timeoutMs: number;
  maxBytes: number;
  cacheSeconds: number;
  /** DNS, injectable in tests; the system resolver otherwise. */
  resolve?: Resolver;
}

const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token'];
const MAX_CACHED = 1000;

/** A client_id that is a URL names a client ID metadata document (rather than a registered client). */
export function isMetadataDocumentId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

function refused(clientId: string, why: string) {
  return new InvalidClientError(`The client metadata document at ${clientId} ${why}.`);
}

function maxAgeOf(cacheControl: string | undefined): number | undefined {
  if (!cacheControl) return undefined;
  if (/\bno-(store|cache)\b/i.test(cacheControl)) return 0;
  const m = cacheControl.match(/\bmax-age=(\d+)/i);
  return m ? Number(m[1]) : undefined;
}

/**
 * Client ID Metadata Documents: a client whose id is an https URL describes itself in a JSON
 * document at that URL. It is fetched SSRF-safe (public addresses only, pinned DNS, no redirects,
 * size and time caps), must name its own URL as client_id, and is cached.
 */
export class ClientMetadataDocuments {
  private readonly cache = new Map<string, { client: OAuthClient; until: number }>();

  constructor(
    private readonly policy: MetadataDocumentPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(clientId: string): Promise<OAuthClient> {
    const hit = this.cache.get(clientId);
    if (hit && hit.until > this.now()) return hit.client;
    this.cache.delete(clientId);
    const url = this.checkUrl(clientId);
    const { body, cacheControl } = await this.fetch(clientId, url);
    const client = this.toClient(clientId, body);
    const ttl = Math.min(this.policy.cacheSeconds, maxAgeOf(cacheControl) ?? Infinity);
    if (ttl > 0) {
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(clientId, { client, until: this.now() + ttl * 1000 });
    }
    return client;
  }

  private checkUrl(clientId: string): URL {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      throw new InvalidClientError('Invalid client: client_id is not a valid URL.');
    }
    const loopbackHttp = url.protocol === 'http:' && this.policy.allowLoopback && isLoopbackHost(url.hostname);
    if (url.protocol !== 'https:' && !loopbackHttp)
      throw new InvalidClientError('Invalid client: a client_id URL must use https.');
    if (url.pathname === '/' || url.hash || url.username || url.password || /\/\.\.?(\/|$)/.test(url.pathname)) {
      throw new InvalidClientError(
        'Invalid client: a client_id URL needs a path and no fragment, credentials or dot segments.',
      );
    }
    return url;
  }

  private async fetch(clientId: string, url: URL): Promise<{ body: unknown; cacheControl?: string }> {
    let res;
    try {
      res = await safeRequest(url, {
        allowLoopback: this.policy.allowLoopback,
        resolve: this.policy.resolve,
        timeoutMs: this.policy.timeoutMs,
        maxResponseBytes: this.policy.maxBytes,
        maxRedirects: 0,
        headers: { accept: 'application/json' },
      });
    } catch (err) {
      if (isNetError(err)) throw refused(clientId, `could not be fetched: ${err.message}`);
      throw err;
    }
    if (res.status >= 300 && res.status < 400)
      throw refused(clientId, `answered a redirect (HTTP ${res.status}); redirects are not followed`);
    if (res.status !== 200) throw refused(clientId, `answered HTTP ${res.status}`);
    try {
      return { body: JSON.parse(res.body.toString('utf8')), cacheControl: res.headers['cache-control'] };
    } catch {
      throw refused(clientId, 'is not JSON');
    }
  }

  private toClient(clientId: string, doc: unknown): OAuthClient {
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw refused(clientId, 'is not a JSON object');
    const d = doc as Record<string, unknown>;
    if (d.client_id !== clientId)
      throw refused(clientId, `names client_id ${JSON.stringify(d.client_id)}; it must be exactly its own URL`);
    if (!Array.isArray(d.redirect_uris) || !d.redirect_uris.length) throw refused(clientId, 'lists no redirect_uris');
    for (const uri of d.redirect_uris) {
      const why = refusedRedirectUri(uri);
      if (why) throw refused(clientId, `lists a redirect URI that cannot be used: ${why}`);
    }
    if (
      d.client_secret !== undefined ||
      (d.token_endpoint_auth_method !== undefined && d.token_endpoint_auth_method !== 'none')
    ) {
      throw refused(
        clientId,
        'asks for client secrets; a client described by a metadata document is public (token_endpoint_auth_method "none")',
      );
    }
    const grants = d.grant_types === undefined ? SUPPORTED_GRANTS : d.grant_types;
    if (!Array.isArray(grants) || !grants.includes('authorization_code'))
      throw refused(clientId, 'does not use the authorization_code grant');
    const name =
      typeof d.client_name === 'string' && d.client_name.trim()
        ? d.client_name.trim().slice(0, 100)
        : new URL(clientId).host;
    return {
      id: clientId,
      name,
      redirectUris: d.redirect_uris as string[],
      grantTypes: grants.filter((g): g is string => SUPPORTED_GRANTS.includes(g as string)),
      source: 'metadata_document',
    };
  }
}
