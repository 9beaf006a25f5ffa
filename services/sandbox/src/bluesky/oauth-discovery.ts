import { createECDH, createHash } from 'node:crypto';
import { Router } from 'express';
import { recordRequests } from '../requests';
import type { SandboxState } from '../state';
import { cors, OAUTH_PATHS, originOf } from './oauth-http';

/**
 * Where a client finds the account's server and its authorization server: the PLC directory's DID
 * documents (`/bluesky/plc/{did}`), and at the sandbox origin's root the protected-resource metadata
 * (RFC 9728) of the PDS and the authorization server metadata (RFC 8414) the atproto profile requires
 * (https://atproto.com/specs/oauth#server-metadata).
 */
export function blueskyWellKnownRouter(state: SandboxState): Router {
  const router = Router();
  const wellKnown = ['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server'];
  router.use(
    wellKnown,
    recordRequests(state.requests, 'bluesky', () => state.now()),
    cors,
  );
  router.get('/.well-known/oauth-protected-resource', (req, res) => {
    const origin = originOf(req);
    res.set('cache-control', 'max-age=300').json({
      resource: origin,
      authorization_servers: [origin],
      scopes_supported: [],
      bearer_methods_supported: ['header'],
      resource_documentation: 'https://atproto.com',
    });
  });
  router.get('/.well-known/oauth-authorization-server', (req, res) => {
    res.set('cache-control', 'max-age=300').json(authorizationServerMetadata(originOf(req)));
  });
  return router;
}

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    scopes_supported: ['atproto', 'transition:email', 'transition:generic', 'transition:chat.bsky'],
    subject_types_supported: ['public'],
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    ui_locales_supported: ['en-US'],
    display_values_supported: ['page'],
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: true,
    require_request_uri_registration: true,
    jwks_uri: `${issuer}${OAUTH_PATHS.jwks}`,
    authorization_endpoint: `${issuer}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['ES256'],
    revocation_endpoint: `${issuer}${OAUTH_PATHS.revoke}`,
    pushed_authorization_request_endpoint: `${issuer}${OAUTH_PATHS.par}`,
    require_pushed_authorization_requests: true,
    dpop_signing_alg_values_supported: ['ES256'],
    client_id_metadata_document_supported: true,
  };
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A fixed secp256k1 signing key for the account, as a did:key multibase (multicodec 0xe7): https://atproto.com/specs/cryptography */
function signingKeyOf(did: string): string {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(createHash('sha256').update(`bluesky-signing:${did}`).digest());
  const compressed = Buffer.from(ecdh.getPublicKey('hex', 'compressed'), 'hex');
  return `z${base58(Buffer.concat([Buffer.from([0xe7, 0x01]), compressed]))}`;
}

/**
 * GET /bluesky/plc/{did}: the DID document the PLC directory serves (https://web.plc.directory/api/redoc):
 * the handle as `alsoKnownAs`, the signing key, and the PDS (`#atproto_pds`) at `{sandbox origin}/bluesky`.
 * An unknown DID answers 404 as PLC does.
 */
export function plcRouter(state: SandboxState): Router {
  const router = Router();
  router.get('/:did', (req, res) => {
    const did = req.params.did;
    const user = state.users.list('bluesky').find((u) => state.bluesky.didOf(u) === did);
    if (!user) return void res.status(404).json({ message: `DID not registered: ${did}` });
    res.type('application/did+ld+json').send(
      JSON.stringify({
        '@context': [
          'https://www.w3.org/ns/did/v1',
          'https://w3id.org/security/multikey/v1',
          'https://w3id.org/security/suites/secp256k1-2019/v1',
        ],
        id: did,
        alsoKnownAs: [`at://${state.bluesky.handleOf(user)}`],
        verificationMethod: [
          { id: `${did}#atproto`, type: 'Multikey', controller: did, publicKeyMultibase: signingKeyOf(did) },
        ],
        service: [
          { id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: `${originOf(req)}/bluesky` },
        ],
      }),
    );
  });
  return router;
}
