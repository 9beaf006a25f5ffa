import { createPublicKey, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callXrpc } from '../src/bluesky/api';
import {
  DpopSigner,
  clientPublicJwk,
  dpopProof,
  newDpopKey,
  sha256b64url,
  type DpopPrivateJwk,
} from '../src/bluesky/oauth/dpop';
import {
  clientAuth,
  finishBlueskyAuthorization,
  sessionOf,
  type PendingBlueskyAuthorization,
} from '../src/bluesky/oauth/client';
import {
  checkedUrl,
  parseIdentifier,
  readDidDocument,
  validateAuthServerMetadata,
  validateProtectedResource,
} from '../src/bluesky/oauth/identity';

/** The parts of the atproto OAuth client (https://atproto.com/specs/oauth) that need no server. */

const ISSUER = 'https://bsky.social';
const DID = 'did:plc:abcdefghijklmnopqrstuvwx';
const strict = { allowLoopback: false };

function decode(jwt: string) {
  const [h, p, s] = jwt.split('.');
  const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: json(h), payload: json(p), input: `${h}.${p}`, signature: Buffer.from(s, 'base64url') };
}

function verifies(jwt: string, jwk: Record<string, unknown>): boolean {
  const { input, signature } = decode(jwt);
  const key = createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  return verify('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }, signature);
}

const goodMetadata = (): Record<string, unknown> => ({
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/oauth/authorize`,
  token_endpoint: `${ISSUER}/oauth/token`,
  pushed_authorization_request_endpoint: `${ISSUER}/oauth/par`,
  require_pushed_authorization_requests: true,
  code_challenge_methods_supported: ['S256'],
  dpop_signing_alg_values_supported: ['ES256'],
  scopes_supported: ['atproto', 'transition:generic'],
  authorization_response_iss_parameter_supported: true,
  client_id_metadata_document_supported: true,
});

describe('DPoP proofs', () => {
  test('when a proof is made for a call with a token, then it carries the public key, htm, htu without query, nonce and ath, and verifies', () => {
    const key = newDpopKey();
    const proof = dpopProof({
      key,
      method: 'post',
      url: 'https://pds.example/xrpc/x?y=1#z',
      nonce: 'n1',
      accessToken: 'tok',
    });
    const { header, payload } = decode(proof);
    expect(header).toEqual({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256', x: key.x, y: key.y } });
    expect(payload).toEqual({
      jti: expect.any(String),
      htm: 'POST',
      htu: 'https://pds.example/xrpc/x',
      iat: expect.any(Number),
      nonce: 'n1',
      ath: sha256b64url('tok'),
    });
    expect(verifies(proof, header.jwk as Record<string, unknown>)).toBe(true);
    expect(decode(dpopProof({ key, method: 'GET', url: 'https://a.example/' })).payload.jti).not.toBe(payload.jti);
  });

  test('when servers hand out nonces, then each origin keeps its own and an unchanged one is not new', () => {
    const signer = new DpopSigner(newDpopKey());
    expect(signer.remember('https://as.example/oauth/par', 'a1')).toBe(true);
    expect(signer.remember('https://as.example/oauth/token', 'a1')).toBe(false);
    expect(signer.remember('https://pds.example/xrpc/x', 'p1')).toBe(true);
    expect(decode(signer.proof('POST', 'https://as.example/oauth/token')).payload.nonce).toBe('a1');
    expect(decode(signer.proof('GET', 'https://pds.example/xrpc/y')).payload.nonce).toBe('p1');
  });
});

describe('client authentication', () => {
  test('when the client is confidential, then its assertion is signed with its key, for the issuer', () => {
    const key = { ...newDpopKey(), kid: 'k1' };
    const clientId = 'https://postbus.example/oauth/bluesky/client-metadata.json';
    const auth = clientAuth(
      { clientId, redirectUri: 'https://postbus.example/cb', scope: 'atproto', clientKey: key },
      ISSUER,
    );
    expect(auth).toMatchObject({
      client_id: clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    });
    const { header, payload } = decode(auth.client_assertion);
    expect(header).toMatchObject({ alg: 'ES256', kid: 'k1' });
    expect(payload).toMatchObject({ iss: clientId, sub: clientId, aud: ISSUER });
    expect(verifies(auth.client_assertion, clientPublicJwk(key) as Record<string, unknown>)).toBe(true);
    expect(clientPublicJwk(key)).not.toHaveProperty('d');
  });

  test('when the client is a loopback client, then it sends only its client_id', () => {
    expect(
      clientAuth({ clientId: 'http://localhost', redirectUri: 'http://127.0.0.1/cb', scope: 'atproto' }, ISSUER),
    ).toEqual({
      client_id: 'http://localhost',
    });
  });
});

describe('discovery refusals', () => {
  test('when the authorization server metadata is complete, then it is accepted', () => {
    expect(validateAuthServerMetadata(goodMetadata(), ISSUER, strict).token_endpoint).toBe(`${ISSUER}/oauth/token`);
  });

  test.each([
    ['names another issuer', { issuer: 'https://evil.example' }, 'issuer_mismatch'],
    ['has no PAR endpoint', { pushed_authorization_request_endpoint: undefined }, 'par_unsupported'],
    ['does not require PAR', { require_pushed_authorization_requests: false }, 'par_unsupported'],
    ['offers no S256', { code_challenge_methods_supported: ['plain'] }, 's256_unsupported'],
    ['takes no ES256 DPoP proofs', { dpop_signing_alg_values_supported: ['RS256'] }, 'dpop_unsupported'],
    ['offers no atproto scope', { scopes_supported: ['openid'] }, 'as_metadata_invalid'],
    ['sends no iss in its answer', { authorization_response_iss_parameter_supported: false }, 'as_metadata_invalid'],
    ['has a plain http token endpoint', { token_endpoint: 'http://bsky.social/oauth/token' }, 'insecure_url'],
  ])('when the authorization server %s, then it is refused', (_what, change, code) => {
    const refused = (() => {
      try {
        return validateAuthServerMetadata({ ...goodMetadata(), ...change }, ISSUER, strict);
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toMatchObject({
      code,
      transient: false,
      message: expect.stringMatching(/^Bluesky sign-in refused: /),
    });
  });

  test('when the PDS names two authorization servers, another resource or a non-origin issuer, then it is refused', () => {
    const pds = 'https://pds.example';
    expect(validateProtectedResource({ resource: pds, authorization_servers: [ISSUER] }, pds, strict)).toBe(ISSUER);
    expect(() =>
      validateProtectedResource({ authorization_servers: [ISSUER, 'https://b.example'] }, pds, strict),
    ).toThrow(/exactly one authorization server/);
    expect(() =>
      validateProtectedResource({ resource: 'https://other.example', authorization_servers: [ISSUER] }, pds, strict),
    ).toThrow(/describes https:\/\/other.example/);
    expect(() => validateProtectedResource({ authorization_servers: [`${ISSUER}/path`] }, pds, strict)).toThrow(
      /not an origin/,
    );
  });

  test('when a URL is plain http, then only loopback in development passes', () => {
    expect(() => checkedUrl('http://pds.example', 'the PDS URL', strict)).toThrow(/is not https/);
    expect(() => checkedUrl('http://localhost:2583', 'the PDS URL', strict)).toThrow(/is not https/);
    expect(checkedUrl('http://localhost:2583', 'the PDS URL', { allowLoopback: true }).port).toBe('2583');
    expect(() => checkedUrl('http://10.0.0.1', 'the PDS URL', { allowLoopback: true })).toThrow(/is not https/);
  });

  test('when the identifier or DID document is not usable, then the refusal says why', () => {
    expect(parseIdentifier('@Alice.Bsky.Social')).toEqual({ handle: 'alice.bsky.social' });
    expect(parseIdentifier(DID)).toEqual({ did: DID });
    expect(() => parseIdentifier('did:key:z6Mk')).toThrow(expect.objectContaining({ code: 'invalid_identifier' }));
    expect(() => parseIdentifier('not a handle')).toThrow(expect.objectContaining({ code: 'invalid_identifier' }));
    const doc = {
      id: DID,
      alsoKnownAs: ['at://alice.example'],
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'https://pds.example' }],
    };
    expect(readDidDocument(DID, doc, strict)).toEqual({
      did: DID,
      handle: 'alice.example',
      pdsUrl: 'https://pds.example',
    });
    expect(() => readDidDocument(DID, { ...doc, id: 'did:plc:other' }, strict)).toThrow(
      expect.objectContaining({ code: 'identity_unresolved' }),
    );
    expect(() => readDidDocument(DID, { ...doc, service: [] }, strict)).toThrow(
      expect.objectContaining({ code: 'no_pds' }),
    );
  });
});

describe('callback and token refusals', () => {
  const pending: PendingBlueskyAuthorization = {
    state: 's1',
    codeVerifier: 'v',
    dpopJwk: newDpopKey(),
    issuer: ISSUER,
    did: DID,
    pdsUrl: 'https://pds.example',
  };
  const opts = {
    access: strict,
    plcUrl: 'https://plc.directory',
    handleResolverUrl: 'https://bsky.social',
    client: { clientId: 'https://c.example/m.json', redirectUri: 'https://c.example/cb', scope: 'atproto' },
  };

  test.each([
    ['another state', { code: 'c', state: 's2', iss: ISSUER }, 'state_mismatch'],
    ['another issuer', { code: 'c', state: 's1', iss: 'https://evil.example' }, 'issuer_mismatch'],
    [
      'a refusal',
      { state: 's1', iss: ISSUER, error: 'access_denied', error_description: 'no' },
      'authorization_denied',
    ],
  ])('when the callback carries %s, then it is refused before any exchange', async (_what, params, code) => {
    await expect(finishBlueskyAuthorization(opts, pending, params)).rejects.toMatchObject({ code, transient: false });
  });

  const token = {
    sub: DID,
    token_type: 'DPoP',
    scope: 'atproto transition:generic',
    access_token: 'a',
    refresh_token: 'r',
    expires_in: 60,
  };
  test.each([
    ['another account', { sub: 'did:plc:zzzzzzzzzzzzzzzzzzzzzzzz' }, 'sub_mismatch'],
    ['a Bearer token', { token_type: 'Bearer' }, 'token_type_invalid'],
    ['no atproto scope', { scope: 'transition:generic' }, 'scope_missing'],
    ['no refresh token', { refresh_token: undefined }, 'malformed_response'],
  ])('when the token answer is for %s, then it is refused', (_what, change, code) => {
    expect(() => sessionOf({ ...token, ...change }, pending)).toThrow(expect.objectContaining({ code }));
  });

  test('when the token answer is right, then the session keeps the DID, PDS, issuer and key', () => {
    expect(sessionOf(token, pending)).toMatchObject({
      did: DID,
      pdsUrl: 'https://pds.example',
      issuer: ISSUER,
      scope: ['atproto', 'transition:generic'],
    });
  });
});

describe('DPoP-bound XRPC calls', () => {
  let server: Server;
  let seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      const proof = decode(String(req.headers.dpop)).payload;
      if (proof.nonce !== 'rs-nonce')
        return res
          .writeHead(401, {
            'www-authenticate': 'DPoP error="use_dpop_nonce"',
            'dpop-nonce': 'rs-nonce',
            'content-type': 'application/json',
          })
          .end('{"error":"use_dpop_nonce"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test('when the PDS asks for its nonce, then the call is sent once more with it, as DPoP with ath', async () => {
    seen = [];
    const key: DpopPrivateJwk = newDpopKey();
    const serviceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`;
    const answer = await callXrpc(
      { serviceUrl, accessJwt: 'tok', dpop: new DpopSigner(key) },
      { method: 'GET', nsid: 'a.b.c', query: { q: '1' } },
    );
    expect(answer).toEqual({ ok: true });
    expect(seen).toHaveLength(2);
    expect(seen[1].authorization).toBe('DPoP tok');
    expect(decode(String(seen[1].dpop)).payload).toMatchObject({
      htm: 'GET',
      htu: `${serviceUrl}/xrpc/a.b.c`,
      nonce: 'rs-nonce',
      ath: sha256b64url('tok'),
    });
  });

  test('when the PDS keeps refusing the nonce, then the second refusal is the answer', async () => {
    seen = [];
    const signer = new DpopSigner(newDpopKey(), {});
    const serviceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A signer that never sends the nonce it was given: the server refuses twice.
    signer.proof = (method, url, token) => dpopProof({ key: signer.key, method, url, accessToken: token });
    await expect(
      callXrpc({ serviceUrl, accessJwt: 'tok', dpop: signer }, { method: 'GET', nsid: 'a.b.c' }),
    ).rejects.toMatchObject({
      tokenRejected: true,
      status: 401,
    });
    expect(seen).toHaveLength(2);
  });
});
