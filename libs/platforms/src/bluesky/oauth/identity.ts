import { isNetError } from '@postbus/net';
import { OAuthError } from '../../oauth/oauth-error';
import { BLUESKY_PLATFORM } from '../api';
import { refuse } from './errors';
import { BLUESKY_OAUTH_ANSWER_MAX_BYTES, isTrustedOrigin, netFetch, type BlueskyNetAccess } from './net-fetch';

/**
 * Identity resolution and server discovery (https://atproto.com/specs/oauth#identity-authentication,
 * https://atproto.com/specs/oauth#authorization-servers): handle → DID → DID document → PDS →
 * protected-resource metadata → authorization-server metadata, each step checked as the spec says.
 */
export interface BlueskyIdentityOptions {
  access: BlueskyNetAccess;
  /** The PLC directory (BLUESKY_PLC_URL): `GET {plcUrl}/{did}` answers a did:plc document. */
  plcUrl: string;
  /** Where handles are resolved with com.atproto.identity.resolveHandle (BLUESKY_SERVICE_URL). */
  handleResolverUrl: string;
  /** Deadline of each read; default 10 s. */
  timeoutMs?: number;
}

export interface BlueskyIdentity {
  did: string;
  /** The handle the DID document claims back (absent when it claims none). */
  handle?: string;
  /** The PDS the DID document names (its #atproto_pds service endpoint). */
  pdsUrl: string;
}

/** The parts of the authorization server metadata the client uses, checked. */
export interface AuthServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  pushed_authorization_request_endpoint: string;
  scopes_supported?: string[];
  [key: string]: unknown;
}

const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DID_PLC = /^did:plc:[a-z2-7]{24}$/;
const DID_WEB = /^did:web:[a-z0-9.-]+$/;

/** A handle as typed (a leading @, any case) or a DID; refuses anything else. */
export function parseIdentifier(input: string): { did: string } | { handle: string } {
  const text = input.trim().replace(/^@/, '');
  if (text.startsWith('did:')) {
    if (DID_PLC.test(text) || DID_WEB.test(text)) return { did: text };
    throw refuse('invalid_identifier', `${text.slice(0, 100)} is not a did:plc or did:web identifier.`);
  }
  const handle = text.toLowerCase();
  if (handle.length > 253 || !HANDLE.test(handle))
    throw refuse(
      'invalid_identifier',
      `${text.slice(0, 100)} is not a Bluesky handle (like alice.bsky.social) or DID.`,
    );
  return { handle };
}

/** Handle or DID → the DID, its handle (checked both ways when starting from a handle) and its PDS. */
export async function resolveBlueskyIdentity(input: string, opts: BlueskyIdentityOptions): Promise<BlueskyIdentity> {
  const id = parseIdentifier(input);
  const did = 'did' in id ? id.did : await resolveHandle(id.handle, opts);
  const doc = await getJson(didDocumentUrl(did, opts.plcUrl), `the DID document of ${did}`, opts);
  const identity = readDidDocument(did, doc, opts.access);
  // https://atproto.com/specs/handle#handle-resolution: the DID document must claim the handle back.
  if ('handle' in id && identity.handle !== id.handle)
    throw refuse('handle_mismatch', `the DID document of ${did} does not claim the handle ${id.handle}.`);
  return identity;
}

async function resolveHandle(handle: string, opts: BlueskyIdentityOptions): Promise<string> {
  // https://docs.bsky.app/docs/api/com-atproto-identity-resolve-handle
  const url = new URL('xrpc/com.atproto.identity.resolveHandle', withSlash(opts.handleResolverUrl));
  url.searchParams.set('handle', handle);
  const json = await getJson(url, `the handle ${handle}`, opts);
  const did = typeof json.did === 'string' ? json.did : '';
  if (!DID_PLC.test(did) && !DID_WEB.test(did))
    throw refuse('identity_unresolved', `the handle ${handle} resolves to no DID.`);
  return did;
}

function didDocumentUrl(did: string, plcUrl: string): URL {
  // did:plc: https://web.plc.directory/spec/v0.1/did-plc; did:web: https://w3c-ccg.github.io/did-method-web/
  if (did.startsWith('did:plc:')) return new URL(encodeURIComponent(did), withSlash(plcUrl));
  return new URL(`https://${did.slice('did:web:'.length)}/.well-known/did.json`);
}

/** Reads the DID document: `id` is the DID, the PDS is the `#atproto_pds` AtprotoPersonalDataServer service. */
export function readDidDocument(did: string, doc: Record<string, unknown>, access: BlueskyNetAccess): BlueskyIdentity {
  if (doc.id !== did) throw refuse('identity_unresolved', `the DID document answered for ${did} is not its own.`);
  const services = Array.isArray(doc.service) ? (doc.service as Record<string, unknown>[]) : [];
  const pds = services.find(
    (s) => (s?.id === '#atproto_pds' || s?.id === `${did}#atproto_pds`) && s?.type === 'AtprotoPersonalDataServer',
  );
  const endpoint = typeof pds?.serviceEndpoint === 'string' ? pds.serviceEndpoint : '';
  if (!endpoint) throw refuse('no_pds', `the DID document of ${did} names no PDS (#atproto_pds).`);
  const pdsUrl = checkedUrl(endpoint, 'the PDS URL', access).toString().replace(/\/$/, '');
  const aka = Array.isArray(doc.alsoKnownAs) ? doc.alsoKnownAs : [];
  const first = aka.find((a): a is string => typeof a === 'string' && a.startsWith('at://'));
  const handle = first?.slice('at://'.length).toLowerCase();
  return { did, pdsUrl, handle: handle && HANDLE.test(handle) ? handle : undefined };
}

/** PDS → its authorization server's issuer (https://atproto.com/specs/oauth#authorization-servers). */
export async function discoverIssuer(pdsUrl: string, opts: BlueskyIdentityOptions): Promise<string> {
  const origin = new URL(pdsUrl).origin;
  // RFC 9728 §3: GET {resource origin}/.well-known/oauth-protected-resource
  const json = await getJson(new URL('/.well-known/oauth-protected-resource', origin), 'the PDS OAuth metadata', {
    ...opts,
    access: opts.access,
  });
  return validateProtectedResource(json, origin, opts.access);
}

/** The protected-resource metadata names exactly one authorization server, for this very resource. */
export function validateProtectedResource(
  json: Record<string, unknown>,
  origin: string,
  access: BlueskyNetAccess,
): string {
  if (typeof json.resource === 'string' && stripSlash(json.resource) !== origin)
    throw refuse(
      'resource_metadata_invalid',
      `the PDS metadata describes ${json.resource.slice(0, 200)}, not ${origin}.`,
    );
  const servers = json.authorization_servers;
  if (!Array.isArray(servers) || servers.length !== 1 || typeof servers[0] !== 'string')
    throw refuse('resource_metadata_invalid', 'the PDS metadata must name exactly one authorization server.');
  return issuerOf(servers[0], access);
}

/** An issuer is an origin: https (http on loopback in development), no path, query or fragment. */
export function issuerOf(raw: string, access: BlueskyNetAccess): string {
  const url = checkedUrl(raw, 'the issuer', access);
  if (url.pathname !== '/' || url.search || url.hash)
    throw refuse('resource_metadata_invalid', `the issuer ${raw.slice(0, 200)} is not an origin.`);
  return url.origin;
}

/** Issuer → its metadata (RFC 8414 §3), checked by validateAuthServerMetadata. */
export async function fetchAuthServerMetadata(
  issuer: string,
  opts: BlueskyIdentityOptions,
): Promise<AuthServerMetadata> {
  const json = await getJson(
    new URL('/.well-known/oauth-authorization-server', issuer),
    'the authorization server metadata',
    opts,
  );
  return validateAuthServerMetadata(json, issuer, opts.access);
}

/**
 * https://atproto.com/specs/oauth#authorization-servers ("Server Metadata"): the issuer is the one
 * asked for; PAR is offered and required; PKCE S256; DPoP with ES256; the atproto scope; `iss` in
 * the authorization response; client ID metadata documents.
 */
export function validateAuthServerMetadata(
  json: Record<string, unknown>,
  issuer: string,
  access: BlueskyNetAccess,
): AuthServerMetadata {
  if (json.issuer !== issuer)
    throw refuse(
      'issuer_mismatch',
      `the authorization server says it is ${String(json.issuer).slice(0, 200)}, not ${issuer}.`,
    );
  const list = (key: string) => (Array.isArray(json[key]) ? (json[key] as unknown[]) : []);
  if (
    typeof json.pushed_authorization_request_endpoint !== 'string' ||
    json.require_pushed_authorization_requests !== true
  )
    throw refuse('par_unsupported', `${issuer} does not require pushed authorization requests (PAR).`);
  if (!list('code_challenge_methods_supported').includes('S256'))
    throw refuse('s256_unsupported', `${issuer} does not offer PKCE with S256.`);
  if (!list('dpop_signing_alg_values_supported').includes('ES256'))
    throw refuse('dpop_unsupported', `${issuer} does not take DPoP proofs signed with ES256.`);
  if (!list('scopes_supported').includes('atproto'))
    throw refuse('as_metadata_invalid', `${issuer} does not offer the atproto scope.`);
  if (json.authorization_response_iss_parameter_supported !== true)
    throw refuse('as_metadata_invalid', `${issuer} does not send "iss" with its authorization response.`);
  if (json.client_id_metadata_document_supported !== true)
    throw refuse('as_metadata_invalid', `${issuer} does not read client metadata documents.`);
  for (const key of ['authorization_endpoint', 'token_endpoint', 'pushed_authorization_request_endpoint']) {
    if (typeof json[key] !== 'string') throw refuse('as_metadata_invalid', `${issuer} names no ${key}.`);
    checkedUrl(json[key], key, access);
  }
  return json as AuthServerMetadata;
}

/** https only (http on loopback hosts when loopback is allowed, for development). */
export function checkedUrl(raw: string, what: string, access: BlueskyNetAccess): URL {
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
    throw refuse('insecure_url', `${what} (${raw.slice(0, 200)}) is not a valid https URL.`);
  if (
    url.protocol === 'http:' &&
    !(access.allowLoopback && isLoopbackHost(url.hostname)) &&
    !isTrustedOrigin(access, url)
  )
    throw refuse('insecure_url', `${what} (${raw.slice(0, 200)}) is not https.`);
  return url;
}

const isLoopbackHost = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
const stripSlash = (url: string) => url.replace(/\/$/, '');

/** A bounded JSON GET through @postbus/net; failures name what was being read. */
export async function getJson(
  url: URL,
  what: string,
  opts: Pick<BlueskyIdentityOptions, 'access' | 'timeoutMs'>,
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await netFetch(opts.access, { timeoutMs: opts.timeoutMs, maxBytes: BLUESKY_OAUTH_ANSWER_MAX_BYTES })(url, {
      headers: { accept: 'application/json' },
    });
  } catch (err) {
    const refused = isNetError(err) && (err.kind === 'refused_address' || err.kind === 'invalid_url');
    throw new OAuthError(`Bluesky sign-in: ${what} could not be read at ${url.origin} (${(err as Error).message}).`, {
      platform: BLUESKY_PLATFORM,
      transient: !refused,
      code: refused ? 'refused_address' : 'network_error',
      cause: err,
    });
  }
  const json = await res.json().catch(() => undefined);
  if (res.status === 400 && what.startsWith('the handle'))
    throw refuse('identity_unresolved', `${what} does not exist.`);
  if (!res.ok || !json || typeof json !== 'object' || Array.isArray(json)) {
    throw new OAuthError(`Bluesky sign-in: ${what} could not be read at ${url.origin} (HTTP ${res.status}).`, {
      platform: BLUESKY_PLATFORM,
      transient: res.status >= 500 || res.status === 429,
      code: res.ok ? 'malformed_response' : 'identity_unresolved',
      status: res.status,
    });
  }
  return json as Record<string, unknown>;
}
