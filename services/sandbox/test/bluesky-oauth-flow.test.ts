// oauth4webapi is an ES module: its types are imported as one, the module itself when the tests start.
import type * as OAuth from 'oauth4webapi' with { 'resolution-mode': 'import' };
import { aJpeg } from '@postbus/testing';
import { startSandbox, type RunningSandbox } from '../src/main';
import { DocumentServer } from './bluesky-oauth-support';
import { call, control, newUser } from './emulator-client';
import { consent } from './oauth-support';

/**
 * A strict third-party client (oauth4webapi: exact issuer, `iss` in the callback, PKCE, DPoP with
 * server nonces) through the whole atproto OAuth flow against the sandbox: discovery, PAR, consent,
 * token, a post through the PDS with DPoP, and refresh rotation.
 */

let oauth: typeof OAuth;
let insecure: { [key: symbol]: boolean };
let sandbox: RunningSandbox;
const docs = new DocumentServer();

beforeAll(async () => {
  oauth = await import('oauth4webapi');
  insecure = { [oauth.allowInsecureRequests]: true };
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0, blueskyOAuth: { allowLoopbackClientMetadata: true } });
  await docs.start();
});
afterAll(async () => {
  await docs.stop();
  await sandbox.close();
});

/** Runs a call once more when the server asks for its DPoP nonce (the handle keeps the nonce it was given). */
async function withNonce<T>(attempt: () => Promise<T>): Promise<{ value: T; nonceAsked: boolean }> {
  try {
    return { value: await attempt(), nonceAsked: false };
  } catch (err) {
    if (!oauth.isDPoPNonceError(err)) throw err;
    return { value: await attempt(), nonceAsked: true };
  }
}

async function discover(did: string): Promise<OAuth.AuthorizationServer> {
  const doc = await call(`${sandbox.url}/bluesky/plc/${did}`);
  const pds = (doc.body.service as { id: string; serviceEndpoint: string }[]).find((s) => s.id === '#atproto_pds')!;
  const resource = await call(`${new URL(pds.serviceEndpoint).origin}/.well-known/oauth-protected-resource`);
  const issuer = new URL(resource.body.authorization_servers[0]);
  const res = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure });
  return oauth.processDiscoveryResponse(issuer, res);
}

interface Session {
  as: OAuth.AuthorizationServer;
  client: OAuth.Client;
  auth: OAuth.ClientAuth;
  dpop: OAuth.DPoPHandle;
  tokens: OAuth.TokenEndpointResponse;
  parNonceAsked: boolean;
}

async function signIn(
  clientId: string,
  auth: OAuth.ClientAuth,
  user: { userId: string; handle: string },
  did: string,
  redirectUri: string,
  scope = 'atproto transition:generic',
): Promise<Session> {
  const as = await discover(did);
  const client: OAuth.Client = { client_id: clientId };
  const dpop = oauth.DPoP(client, await oauth.generateKeyPair('ES256'));
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const params = {
    response_type: 'code',
    redirect_uri: redirectUri,
    scope,
    state,
    login_hint: did,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  };
  const par = await withNonce(async () =>
    oauth.processPushedAuthorizationResponse(
      as,
      client,
      await oauth.pushedAuthorizationRequest(as, client, auth, params, { DPoP: dpop, ...insecure }),
    ),
  );
  const authorize = new URL(as.authorization_endpoint!);
  authorize.searchParams.set('client_id', clientId);
  authorize.searchParams.set('request_uri', par.value.request_uri);
  const back = await consent(authorize.toString(), { accounts: [user.userId] });
  const callback = oauth.validateAuthResponse(as, client, back, state);
  const tokens = await withNonce(async () =>
    oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, callback, redirectUri, verifier, {
        DPoP: dpop,
        ...insecure,
      }),
    ),
  );
  return { as, client, auth, dpop, tokens: tokens.value, parNonceAsked: par.nonceAsked };
}

async function createPost(s: Session, did: string, text: string) {
  const url = new URL(`${sandbox.url}/bluesky/xrpc/com.atproto.repo.createRecord`);
  const body = JSON.stringify({
    repo: did,
    collection: 'app.bsky.feed.post',
    record: { $type: 'app.bsky.feed.post', text, createdAt: new Date().toISOString() },
  });
  return withNonce(() =>
    oauth.protectedResourceRequest(
      s.tokens.access_token,
      'POST',
      url,
      new Headers({ 'content-type': 'application/json' }),
      body,
      { DPoP: s.dpop, ...insecure },
    ),
  );
}

async function refresh(s: Session, token: string) {
  return withNonce(async () =>
    oauth.processRefreshTokenResponse(
      s.as,
      s.client,
      await oauth.refreshTokenGrantRequest(s.as, s.client, s.auth, token, { DPoP: s.dpop, ...insecure }),
    ),
  );
}

async function blueskyUser(handle: string) {
  const user = await newUser(sandbox, 'bluesky', handle);
  const resolved = await call(
    `${sandbox.url}/bluesky/xrpc/com.atproto.identity.resolveHandle?handle=${handle.replace(/_/g, '-')}.bsky.social`,
  );
  return { user, did: resolved.body.did as string };
}

describe('discovery', () => {
  test('when a DID is looked up, then its document names the handle and the sandbox PDS, whose metadata names the sandbox as issuer; an unknown DID is 404', async () => {
    const { did } = await blueskyUser('discovered');
    const doc = await call(`${sandbox.url}/bluesky/plc/${did}`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toMatch(/^application\/did\+ld\+json/);
    expect(doc.body).toMatchObject({
      id: did,
      alsoKnownAs: ['at://discovered.bsky.social'],
      verificationMethod: [
        { id: `${did}#atproto`, type: 'Multikey', publicKeyMultibase: expect.stringMatching(/^zQ3s/) },
      ],
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: `${sandbox.url}/bluesky` }],
    });
    const as = await discover(did);
    expect(as).toMatchObject({
      issuer: sandbox.url,
      pushed_authorization_request_endpoint: `${sandbox.url}/bluesky/oauth/par`,
      authorization_endpoint: `${sandbox.url}/bluesky/oauth/authorize`,
      token_endpoint: `${sandbox.url}/bluesky/oauth/token`,
      require_pushed_authorization_requests: true,
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      code_challenge_methods_supported: ['S256'],
      dpop_signing_alg_values_supported: ['ES256'],
      token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
      scopes_supported: expect.arrayContaining(['atproto', 'transition:generic']),
    });
    const resource = await call(`${sandbox.url}/.well-known/oauth-protected-resource`);
    expect(resource.body).toMatchObject({ resource: sandbox.url, authorization_servers: [sandbox.url] });
    const unknown = await call(`${sandbox.url}/bluesky/plc/did:plc:aaaaaaaaaaaaaaaaaaaaaaaa`);
    expect(unknown).toMatchObject({
      status: 404,
      body: { message: 'DID not registered: did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' },
    });
  });
});

describe('a confidential web client', () => {
  test('when it goes through PAR, consent and the token endpoint, then it posts with DPoP and its refresh tokens rotate, a spent one ending the session', async () => {
    const { user, did } = await blueskyUser('oauth_writer');
    const key = await oauth.generateKeyPair('ES256', { extractable: true });
    const jwk = await crypto.subtle.exportKey('jwk', key.publicKey);
    const clientId = docs.confidentialClient('/flow/client-metadata.json', jwk);
    const auth = oauth.PrivateKeyJwt({ key: key.privateKey, kid: 'client-key' });
    const s = await signIn(clientId, auth, user, did, `${docs.url}/callback`);
    expect(s.parNonceAsked).toBe(true);
    expect(s.tokens).toMatchObject({
      token_type: 'dpop',
      sub: did,
      scope: 'atproto transition:generic',
      expires_in: expect.any(Number),
      refresh_token: expect.stringMatching(/^ref-[0-9a-f]{64}$/),
    });

    const me = await withNonce(() =>
      oauth.protectedResourceRequest(
        s.tokens.access_token,
        'GET',
        new URL(`${sandbox.url}/bluesky/xrpc/com.atproto.server.getSession`),
        undefined,
        undefined,
        { DPoP: s.dpop, ...insecure },
      ),
    );
    expect(me.nonceAsked).toBe(true);
    expect(await me.value.json()).toEqual({ did, handle: 'oauth-writer.bsky.social', active: true });

    const posted = await createPost(s, did, 'Hello over OAuth');
    expect(posted.nonceAsked).toBe(false);
    expect(posted.value.status).toBe(200);
    const { uri } = (await posted.value.json()) as { uri: string };
    expect(uri).toMatch(new RegExp(`^at://${did}/app.bsky.feed.post/`));
    const published = await control(sandbox, 'GET', '/published?platform=bluesky');
    expect(published.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: uri, text: 'Hello over OAuth' })]),
    );

    const first = s.tokens.refresh_token!;
    const renewed = await refresh(s, first);
    expect(renewed.value).toMatchObject({ token_type: 'dpop', sub: did, scope: 'atproto transition:generic' });
    expect(renewed.value.refresh_token).not.toBe(first);
    const replayed = await refresh(s, first).catch((err: unknown) => err);
    expect(replayed).toMatchObject({ error: 'invalid_grant', error_description: 'Refresh token replayed' });
    const afterReplay = await refresh(s, renewed.value.refresh_token!).catch((err: unknown) => err);
    expect(afterReplay).toMatchObject({ error: 'invalid_grant', error_description: 'Invalid refresh token' });
  });

  test('when its keys are published at a jwks_uri, then the sandbox fetches them to check its assertions', async () => {
    const { user, did } = await blueskyUser('jwks_writer');
    const key = await oauth.generateKeyPair('ES256', { extractable: true });
    const jwk = await crypto.subtle.exportKey('jwk', key.publicKey);
    docs.docs.set('/jwks/keys.json', { body: { keys: [{ ...jwk, kid: 'k1' }] } });
    const clientId = docs.confidentialClient('/jwks/client-metadata.json', jwk, {
      jwks: undefined,
      jwks_uri: `${docs.url}/jwks/keys.json`,
    });
    const s = await signIn(
      clientId,
      oauth.PrivateKeyJwt({ key: key.privateKey, kid: 'k1' }),
      user,
      did,
      `${docs.url}/callback`,
    );
    expect(s.tokens).toMatchObject({ sub: did, token_type: 'dpop' });
  });
});

describe('a loopback client', () => {
  test('when a development client on http://localhost signs in, then it is a public client whose tokens upload and post', async () => {
    const { user, did } = await blueskyUser('loopback_writer');
    const redirectUri = 'http://127.0.0.1:8765/callback';
    const clientId = `http://localhost?${new URLSearchParams({ redirect_uri: redirectUri, scope: 'atproto transition:generic' }).toString()}`;
    const s = await signIn(clientId, oauth.None(), user, did, redirectUri);
    expect(s.tokens).toMatchObject({ sub: did, token_type: 'dpop', scope: 'atproto transition:generic' });
    const upload = await withNonce(() =>
      oauth.protectedResourceRequest(
        s.tokens.access_token,
        'POST',
        new URL(`${sandbox.url}/bluesky/xrpc/com.atproto.repo.uploadBlob`),
        new Headers({ 'content-type': 'image/jpeg' }),
        new Uint8Array(aJpeg(1024)),
        { DPoP: s.dpop, ...insecure },
      ),
    );
    expect(upload.value.status).toBe(200);
    expect(((await upload.value.json()) as { blob: { mimeType: string } }).blob.mimeType).toBe('image/jpeg');
  });

  test('when a client asked only for atproto, then the PDS refuses its write with ScopeMissingError', async () => {
    const { user, did } = await blueskyUser('narrow_writer');
    const redirectUri = 'http://127.0.0.1:8765/callback';
    const clientId = `http://localhost?${new URLSearchParams({ redirect_uri: redirectUri, scope: 'atproto' }).toString()}`;
    const s = await signIn(clientId, oauth.None(), user, did, redirectUri, 'atproto');
    const refused = (await createPost(s, did, 'not allowed')).value;
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'ScopeMissingError',
      message: 'Missing required scope "repo:app.bsky.feed.post?action=create"',
    });
  });
});

describe('the request log', () => {
  test('when a client goes through OAuth, then every request is recorded with its DPoP proof and scheme, never a secret', async () => {
    const since = (await control(sandbox, 'GET', '/requests?platform=bluesky')).body.at(-1)?.seq ?? 0;
    const { user, did } = await blueskyUser('logged_writer');
    const redirectUri = 'http://127.0.0.1:8765/callback';
    const clientId = `http://localhost?${new URLSearchParams({ redirect_uri: redirectUri, scope: 'atproto transition:generic' }).toString()}`;
    const s = await signIn(clientId, oauth.None(), user, did, redirectUri);
    await createPost(s, did, 'logged');
    const log = (await control(sandbox, 'GET', `/requests?platform=bluesky&since=${since}`)).body as {
      method: string;
      path: string;
      authScheme: string | null;
      headers: Record<string, string>;
      body: Record<string, string> | null;
    }[];
    const paths = log.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        `GET /bluesky/plc/${did}`,
        'GET /.well-known/oauth-protected-resource',
        'GET /.well-known/oauth-authorization-server',
        'POST /bluesky/oauth/par',
        'GET /bluesky/oauth/authorize',
        'POST /bluesky/oauth/authorize',
        'POST /bluesky/oauth/token',
        'POST /bluesky/xrpc/com.atproto.repo.createRecord',
      ]),
    );
    const par = log.find((r) => r.path === '/bluesky/oauth/par')!;
    expect(par.headers.dpop).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(par.body).toMatchObject({ client_id: clientId, code_challenge_method: 'S256', login_hint: did });
    const token = log.find((r) => r.path === '/bluesky/oauth/token')!;
    expect(token.body).toMatchObject({ grant_type: 'authorization_code', code: '[hidden]', code_verifier: '[hidden]' });
    expect(log.find((r) => r.path.endsWith('createRecord'))!.authScheme).toBe('DPoP');
  });
});
