import { randomBytes } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../src/main';
import {
  clientAssertion,
  DocumentServer,
  dpopProof,
  esKey,
  nowSec,
  pkce,
  postForm,
  type EsKey,
  type PostAnswer,
} from './bluesky-oauth-support';
import { call, newUser } from './emulator-client';
import { hiddenFields } from './oauth-support';

/**
 * What the atproto authorization server and PDS refuse, each with the error the reference server
 * (@atproto/oauth-provider, @atproto/pds) answers: DPoP proofs and nonces, PAR parameters, client
 * metadata and assertions, the consent step, codes and refresh tokens, and DPoP at the PDS.
 */

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
let sandbox: RunningSandbox;
let offsetMs = 0;
const docs = new DocumentServer();
const clientKey = esKey();
const dpopKey = esKey();
let clientId: string;
let user: { userId: string; handle: string; accessToken: string };
let did: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    processingDelayMs: 0,
    now: () => Date.now() + offsetMs,
    blueskyOAuth: { allowLoopbackClientMetadata: true },
  });
  await docs.start();
  clientId = docs.confidentialClient('/client-metadata.json', clientKey.jwk);
  user = await newUser(sandbox, 'bluesky', 'refused_writer');
  did = (await call(`${sandbox.url}/bluesky/xrpc/com.atproto.identity.resolveHandle?handle=refused-writer.bsky.social`))
    .body.did;
});
afterEach(() => {
  offsetMs = 0;
  sandbox.state.blueskyOAuth.rules.allowLoopbackClientMetadata = true;
});
afterAll(async () => {
  await docs.stop();
  await sandbox.close();
});

const url = (path: string) => `${sandbox.url}${path}`;
const PAR = () => url('/bluesky/oauth/par');
const TOKEN = () => url('/bluesky/oauth/token');

/** Any answer of the authorization server carries its current nonce. */
async function asNonce(): Promise<string> {
  return (await postForm(PAR(), {})).headers.get('dpop-nonce')!;
}

function parFields(extra: Record<string, string | undefined> = {}, id = clientId, key = clientKey) {
  const { verifier, challenge } = pkce();
  const fields: Record<string, string | undefined> = {
    client_id: id,
    response_type: 'code',
    redirect_uri: `${docs.url}/callback`,
    scope: 'atproto transition:generic',
    state: `st-${randomBytes(6).toString('hex')}`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    client_assertion_type: JWT_BEARER,
    client_assertion: clientAssertion(key, id, sandbox.url),
    ...extra,
  };
  return {
    fields: Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>,
    verifier,
  };
}

async function sendPar(fields: Record<string, string>, key: EsKey = dpopKey, claims: Record<string, unknown> = {}) {
  const proof = dpopProof(key, { htm: 'POST', htu: PAR(), nonce: await asNonce(), ...claims });
  return postForm(PAR(), fields, { dpop: proof });
}

/** PAR, then the person approves on the consent page: the redirect back. */
async function approve(
  fields: Record<string, string>,
  decision = 'approve',
  account = user.userId,
): Promise<{ back: URL; requestUri: string }> {
  const pushed = await sendPar(fields);
  expect(pushed.status).toBe(201);
  const page = `${url('/bluesky/oauth/authorize')}?${new URLSearchParams({ client_id: fields.client_id, request_uri: pushed.body.request_uri }).toString()}`;
  const html = await (await fetch(page)).text();
  const form = new URLSearchParams({ ...hiddenFields(html), account, decision });
  const res = await fetch(page, { method: 'POST', body: form, redirect: 'manual' });
  expect(res.status).toBe(303);
  return { back: new URL(res.headers.get('location')!), requestUri: pushed.body.request_uri };
}

async function sendToken(fields: Record<string, string>, key: EsKey = dpopKey, id = clientId) {
  const proof = dpopProof(key, { htm: 'POST', htu: TOKEN(), nonce: await asNonce() });
  const auth = {
    client_id: id,
    client_assertion_type: JWT_BEARER,
    client_assertion: clientAssertion(clientKey, id, sandbox.url),
  };
  return postForm(TOKEN(), { ...auth, ...fields }, { dpop: proof });
}

async function codeGrant(extra: Record<string, string> = {}, account = user.userId) {
  const { fields, verifier } = parFields();
  const { back } = await approve(fields, 'approve', account);
  return { code: back.searchParams.get('code')!, verifier, redirect_uri: fields.redirect_uri, ...extra };
}

async function tokens(account = user.userId): Promise<{ access_token: string; refresh_token: string }> {
  const { code, verifier, redirect_uri } = await codeGrant({}, account);
  const res = await sendToken({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri });
  expect(res.status).toBe(200);
  return res.body;
}

const expectOAuthError = (res: PostAnswer, status: number, error: string, description?: string | RegExp) =>
  expect(res).toMatchObject({
    status,
    body: { error, ...(description !== undefined && { error_description: description }) },
  });

describe('DPoP at the authorization server', () => {
  test('when PAR comes without a DPoP proof, then 401 invalid_dpop_proof with a DPoP challenge', async () => {
    const res = await postForm(PAR(), parFields().fields);
    expectOAuthError(res, 401, 'invalid_dpop_proof', 'DPoP proof required');
    expect(res.headers.get('www-authenticate')).toBe(
      'DPoP algs="ES256", error="invalid_dpop_proof", error_description="DPoP proof required"',
    );
  });

  test('when the proof carries no nonce, then 400 use_dpop_nonce and a DPoP-Nonce header, with which PAR answers 201', async () => {
    const { fields } = parFields();
    const first = await postForm(PAR(), fields, { dpop: dpopProof(dpopKey, { htm: 'POST', htu: PAR() }) });
    expectOAuthError(first, 400, 'use_dpop_nonce');
    const nonce = first.headers.get('dpop-nonce')!;
    expect(nonce).toMatch(/^[\w-]{43}$/);
    const stale = await postForm(PAR(), fields, {
      dpop: dpopProof(dpopKey, { htm: 'POST', htu: PAR(), nonce: 'old' }),
    });
    expectOAuthError(stale, 400, 'use_dpop_nonce', 'DPoP "nonce" mismatch');
    const second = await postForm(PAR(), parFields().fields, {
      dpop: dpopProof(dpopKey, { htm: 'POST', htu: PAR(), nonce }),
    });
    expect(second).toMatchObject({
      status: 201,
      body: {
        request_uri: expect.stringMatching(/^urn:ietf:params:oauth:request_uri:req-[0-9a-f]{32}$/),
        expires_in: 300,
      },
    });
  });

  test('when a proof is sent again, then it is refused as replayed', async () => {
    const proof = dpopProof(dpopKey, { htm: 'POST', htu: PAR(), nonce: await asNonce() });
    expect((await postForm(PAR(), parFields().fields, { dpop: proof })).status).toBe(201);
    expectOAuthError(
      await postForm(PAR(), parFields().fields, { dpop: proof }),
      401,
      'invalid_dpop_proof',
      'DPoP proof replayed',
    );
  });

  test.each([
    ['another URL', { htu: 'http://127.0.0.1:1/bluesky/oauth/par' }, {}, 'DPoP "htu" mismatch'],
    ['another method', { htm: 'GET' }, {}, 'DPoP "htm" mismatch'],
    ['an old iat', { iat: nowSec() - 600 }, {}, /too far in the past/],
    ['no jti', { jti: '' }, {}, 'DPoP "jti" missing'],
    ['another typ', {}, { typ: 'JWT' }, /unexpected "typ"/],
    ['another key than its jwk', {}, { jwk: esKey().jwk }, /signature verification failed/],
    ['an ath without a token', { ath: 'x' }, {}, 'DPoP "ath" claim not allowed'],
  ])('when the proof has %s, then invalid_dpop_proof', async (_what, claims, header, description) => {
    const proof = dpopProof(dpopKey, { htm: 'POST', htu: PAR(), nonce: await asNonce(), ...claims }, header);
    expectOAuthError(
      await postForm(PAR(), parFields().fields, { dpop: proof }),
      401,
      'invalid_dpop_proof',
      description,
    );
  });
});

describe('pushed authorization requests', () => {
  test.each([
    [
      'no PKCE',
      { code_challenge: undefined, code_challenge_method: undefined },
      'invalid_request',
      'Use of PKCE is required',
    ],
    [
      'plain PKCE',
      { code_challenge_method: 'plain' },
      'invalid_request',
      'atproto requires use of "S256" code_challenge_method',
    ],
    ['no state', { state: undefined }, 'invalid_request', /"state"/],
    [
      'response_type token',
      { response_type: 'token' },
      'unsupported_response_type',
      'Unsupported response_type "token"',
    ],
    ['no atproto scope', { scope: 'transition:generic' }, 'invalid_scope', 'The "atproto" scope is required'],
    [
      'an undeclared scope',
      { scope: 'atproto transition:chat.bsky' },
      'invalid_scope',
      /not declared in the client metadata/,
    ],
    [
      'a redirect_uri the client does not list',
      { redirect_uri: 'https://elsewhere.example.com/cb' },
      'invalid_request',
      /Invalid redirect_uri/,
    ],
    ['a login_hint that is no handle or DID', { login_hint: 'not a handle' }, 'invalid_request', /Invalid login_hint/],
    ['an OpenID nonce', { nonce: 'n' }, 'invalid_request', 'Unsupported "nonce" parameter'],
  ])('when the request has %s, then the reference error', async (_what, extra, error, description) => {
    expectOAuthError(await sendPar(parFields(extra).fields), 400, error, description);
  });

  test('when client_id is missing, then invalid_client', async () => {
    const { client_id: _id, ...fields } = parFields().fields;
    expectOAuthError(await sendPar(fields), 400, 'invalid_client');
  });
});

describe('clients', () => {
  test('when the rules are strict, then a client_id on http loopback is no client id at all', async () => {
    sandbox.state.blueskyOAuth.rules.allowLoopbackClientMetadata = false;
    expectOAuthError(
      await sendPar(parFields().fields),
      400,
      'invalid_client_metadata',
      `Invalid client ID "${clientId}"`,
    );
  });

  test.each([
    ['a localhost client_id with a port', 'http://localhost:8080?scope=atproto'],
    [
      'a localhost client_id with a localhost redirect_uri',
      'http://localhost?redirect_uri=http%3A%2F%2Flocalhost%2Fcb',
    ],
    ['an https client_id without a path', 'https://client.bsky.app'],
  ])('when the client_id is %s, then invalid_client_metadata', async (_what, id) => {
    const { fields } = parFields({ client_id: id, client_assertion: undefined, client_assertion_type: undefined });
    expectOAuthError(await sendPar(fields), 400, 'invalid_client_metadata', `Invalid client ID "${id}"`);
  });

  test.each([
    [
      'dpop_bound_access_tokens false',
      { dpop_bound_access_tokens: false },
      'invalid_client_metadata',
      '"dpop_bound_access_tokens" must be true',
    ],
    ['no atproto scope', { scope: 'transition:generic' }, 'invalid_client_metadata', 'Missing "atproto" scope'],
    [
      'private_key_jwt without keys',
      { jwks: undefined },
      'invalid_client_metadata',
      'private_key_jwt auth method requires jwks or jwks_uri',
    ],
    [
      'another client_id',
      { client_id: 'https://other.example.com/m.json' },
      'invalid_client_metadata',
      'client_id does not match',
    ],
    [
      'the implicit grant',
      { grant_types: ['authorization_code', 'implicit'] },
      'invalid_client_metadata',
      'Grant type "implicit" is not allowed',
    ],
    [
      'no token_endpoint_auth_method',
      { token_endpoint_auth_method: undefined },
      'invalid_client_metadata',
      /Unsupported client authentication method "client_secret_basic"/,
    ],
    [
      'a native private_key_jwt client',
      { application_type: 'native' },
      'invalid_client_metadata',
      'Native clients must authenticate using "none" method',
    ],
    [
      'a plain http redirect',
      { redirect_uris: ['http://app.example.com/cb'] },
      'invalid_redirect_uri',
      /Only loopback redirect URIs/,
    ],
    [
      'a private-use scheme for a web client',
      { redirect_uris: ['com.example.app:/cb'] },
      'invalid_redirect_uri',
      /only allowed for native apps/,
    ],
  ])('when the metadata has %s, then the reference error', async (_what, changes, error, description) => {
    const path = `/bad-${randomBytes(4).toString('hex')}.json`;
    const id = docs.confidentialClient(path, clientKey.jwk, changes);
    expectOAuthError(await sendPar(parFields({}, id).fields), 400, error, description);
  });

  test.each([
    ['answers 404', { status: 404 }, /Unexpected status code 404/],
    ['is not application/json', { type: 'text/plain' }, /Unexpected content type "text\/plain"/],
  ])('when the metadata document %s, then invalid_client_metadata', async (_what, answer, description) => {
    const path = `/broken-${randomBytes(4).toString('hex')}.json`;
    const id = docs.confidentialClient(path, clientKey.jwk);
    docs.docs.set(path, { ...docs.docs.get(path)!, ...answer });
    expectOAuthError(await sendPar(parFields({}, id).fields), 400, 'invalid_client_metadata', description);
  });

  test('when the client_id is on a local domain, then invalid_client_id', async () => {
    const { fields } = parFields({ client_id: 'https://app.test/client-metadata.json' });
    expectOAuthError(
      await sendPar(fields),
      400,
      'invalid_client_id',
      "The client_id's TLD must not be a local hostname",
    );
  });

  test('when a confidential client sends no assertion, then invalid_request', async () => {
    const { fields } = parFields({ client_assertion: undefined, client_assertion_type: undefined });
    expectOAuthError(
      await sendPar(fields),
      400,
      'invalid_request',
      'client authentication method "private_key_jwt" required a "client_assertion"',
    );
  });

  test.each([
    ['another audience', { aud: 'https://bsky.social' }, 'client-key', /unexpected "aud" claim value/],
    ['an old iat', { iat: nowSec() - 300, exp: nowSec() + 60 }, 'client-key', /too far in the past/],
    ['an unknown kid', {}, 'other-key', /no applicable key found/],
    ['no kid', {}, '', '"kid" required in client_assertion'],
  ])('when the assertion has %s, then invalid_client', async (_what, overrides, kid, description) => {
    const { fields } = parFields({
      client_assertion: clientAssertion(clientKey, clientId, sandbox.url, overrides, kid),
    });
    expectOAuthError(await sendPar(fields), 400, 'invalid_client', description);
  });

  test('when an assertion is used twice, then invalid_grant; signed with the DPoP key, then invalid_request', async () => {
    const assertion = clientAssertion(clientKey, clientId, sandbox.url);
    expect((await sendPar(parFields({ client_assertion: assertion }).fields)).status).toBe(201);
    expectOAuthError(
      await sendPar(parFields({ client_assertion: assertion }).fields),
      400,
      'invalid_grant',
      'private_key_jwt jti reused',
    );
    expectOAuthError(
      await sendPar(parFields().fields, clientKey),
      400,
      'invalid_request',
      'The DPoP proof must be signed with a different key than the client assertion',
    );
  });
});

describe('the consent step', () => {
  test('when the authorize endpoint gets no request_uri, an invalid or an unknown one, then it shows the problem and redirects nowhere', async () => {
    const base = `${url('/bluesky/oauth/authorize')}?client_id=${encodeURIComponent(clientId)}`;
    for (const query of [
      '',
      '&request_uri=nope',
      `&request_uri=urn:ietf:params:oauth:request_uri:req-${'0'.repeat(32)}`,
    ]) {
      const res = await fetch(`${base}${query}`, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
    expect(await (await fetch(`${base}&request_uri=nope`)).text()).toContain(
      'Invalid &quot;request_uri&quot; query parameter',
    );
  });

  test('when the person approves, then the redirect carries code, state and iss; the request_uri then works no more', async () => {
    const { fields } = parFields();
    const { back, requestUri } = await approve(fields);
    expect(back.origin + back.pathname).toBe(`${docs.url}/callback`);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      code: expect.stringMatching(/^cod-[0-9a-f]{64}$/),
      state: fields.state,
      iss: sandbox.url,
    });
    const again = await fetch(
      `${url('/bluesky/oauth/authorize')}?${new URLSearchParams({ client_id: clientId, request_uri: requestUri }).toString()}`,
      { redirect: 'manual' },
    );
    const location = new URL(again.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: 'access_denied',
      error_description: 'This request was already authorized',
      state: fields.state,
      iss: sandbox.url,
    });
  });

  test('when the person denies, or the request expired, or another client brings it, then access_denied goes back', async () => {
    const denied = await approve(parFields().fields, 'deny');
    expect(denied.back.searchParams.get('error')).toBe('access_denied');
    const late = await sendPar(parFields().fields);
    offsetMs = 6 * 60_000;
    const expired = await fetch(
      `${url('/bluesky/oauth/authorize')}?${new URLSearchParams({ client_id: clientId, request_uri: late.body.request_uri }).toString()}`,
      { redirect: 'manual' },
    );
    expect(new URL(expired.headers.get('location')!).searchParams.get('error_description')).toBe(
      'This request has expired',
    );
    offsetMs = 0;
    const other = await sendPar(parFields().fields);
    const loopback = 'http://localhost?scope=atproto';
    const stolen = await fetch(
      `${url('/bluesky/oauth/authorize')}?${new URLSearchParams({ client_id: loopback, request_uri: other.body.request_uri }).toString()}`,
      { redirect: 'manual' },
    );
    expect(new URL(stolen.headers.get('location')!).searchParams.get('error_description')).toBe(
      'This request was initiated for another client',
    );
  });
});

describe('accounts', () => {
  test('when the request names an account in login_hint, then the consent page offers only that account', async () => {
    const other = await newUser(sandbox, 'bluesky', 'hinted_writer');
    const hinted = (
      await call(url('/bluesky/xrpc/com.atproto.identity.resolveHandle?handle=hinted-writer.bsky.social'))
    ).body.did as string;
    const pushed = await sendPar(parFields({ login_hint: hinted }).fields);
    const query = new URLSearchParams({ client_id: clientId, request_uri: pushed.body.request_uri }).toString();
    const html = await (await fetch(`${url('/bluesky/oauth/authorize')}?${query}`)).text();
    expect(html).toContain(`value="${other.userId}"`);
    expect(html).not.toContain(`value="${user.userId}"`);
  });

  test('when the account revokes the app, then its refresh is refused with invalid_grant and the PDS refuses its token', async () => {
    const revoked = await newUser(sandbox, 'bluesky', 'revoking_writer');
    const t = await tokens(revoked.userId);
    await fetch(url(`/__sandbox/users/${revoked.userId}/revoke`), { method: 'POST' });
    expectOAuthError(
      await sendToken({ grant_type: 'refresh_token', refresh_token: t.refresh_token }),
      400,
      'invalid_grant',
      'Session revoked',
    );
    const create = url('/bluesky/xrpc/com.atproto.repo.createRecord');
    const first = await fetch(create, { method: 'POST', headers: { authorization: `DPoP ${t.access_token}` } });
    const proof = dpopProof(dpopKey, {
      htm: 'POST',
      htu: create,
      accessToken: t.access_token,
      nonce: first.headers.get('dpop-nonce')!,
    });
    const res = await fetch(create, {
      method: 'POST',
      headers: { authorization: `DPoP ${t.access_token}`, dpop: proof, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'InvalidToken', message: 'Token has been revoked' });
  });
});

describe('revocation', () => {
  test('when the client revokes its refresh token, then the session ends; a foreign or unknown token is answered 200 and changes nothing', async () => {
    const REVOKE = url('/bluesky/oauth/revoke');
    const revoke = async (token: string, id = clientId) =>
      postForm(
        REVOKE,
        {
          token,
          client_id: id,
          client_assertion_type: JWT_BEARER,
          client_assertion: clientAssertion(clientKey, id, sandbox.url),
        },
        { dpop: dpopProof(dpopKey, { htm: 'POST', htu: REVOKE, nonce: await asNonce() }) },
      );
    const kept = await tokens();
    const otherId = docs.confidentialClient('/revoking-client.json', clientKey.jwk);
    expect(await revoke(kept.refresh_token, otherId)).toMatchObject({ status: 200, body: {} });
    expect(await revoke('not-a-token')).toMatchObject({ status: 200, body: {} });
    const renewed = await sendToken({ grant_type: 'refresh_token', refresh_token: kept.refresh_token });
    expect(renewed.status).toBe(200);
    expect(await revoke(renewed.body.refresh_token)).toMatchObject({ status: 200, body: {} });
    expectOAuthError(
      await sendToken({ grant_type: 'refresh_token', refresh_token: renewed.body.refresh_token }),
      400,
      'invalid_grant',
      'Invalid refresh token',
    );
    expectOAuthError(await postForm(REVOKE, { token: 'x', client_id: clientId }), 401, 'invalid_dpop_proof');
  });
});

describe('the token endpoint', () => {
  test('when a code is used twice, then invalid_grant, and the session the first use made is revoked', async () => {
    const { code, verifier, redirect_uri } = await codeGrant();
    const grant = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri };
    const first = await sendToken(grant);
    expect(first).toMatchObject({
      status: 200,
      body: { token_type: 'DPoP', sub: did, scope: 'atproto transition:generic' },
    });
    expectOAuthError(await sendToken(grant), 400, 'invalid_grant', 'Invalid code');
    expectOAuthError(
      await sendToken({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token }),
      400,
      'invalid_grant',
      'Invalid refresh token',
    );
  });

  test.each([
    [
      'a wrong code_verifier',
      (g: Record<string, string>) => ({ ...g, code_verifier: pkce().verifier }),
      dpopKey,
      'Invalid code_verifier',
    ],
    [
      'no code_verifier',
      ({ code_verifier: _v, ...g }: Record<string, string>) => g,
      dpopKey,
      'code_verifier is required',
    ],
    [
      'another redirect_uri',
      (g: Record<string, string>) => ({ ...g, redirect_uri: `${docs.url}/other` }),
      dpopKey,
      /must match the one used/,
    ],
    [
      'another DPoP key than PAR',
      (g: Record<string, string>) => g,
      esKey(),
      'DPoP proof does not match the expected JKT',
    ],
    ['a malformed code', (g: Record<string, string>) => ({ ...g, code: 'abc' }), dpopKey, 'Invalid code'],
  ])('when the exchange has %s, then invalid_grant', async (_what, change, key, description) => {
    const { code, verifier, redirect_uri } = await codeGrant();
    const grant = change({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri });
    expectOAuthError(await sendToken(grant, key), 400, 'invalid_grant', description);
  });

  test('when another client redeems the code, or the code expired, then invalid_grant', async () => {
    const otherId = docs.confidentialClient('/other-client.json', clientKey.jwk);
    const stolen = await codeGrant();
    expectOAuthError(
      await sendToken(
        {
          grant_type: 'authorization_code',
          code: stolen.code,
          code_verifier: stolen.verifier,
          redirect_uri: stolen.redirect_uri,
        },
        dpopKey,
        otherId,
      ),
      400,
      'invalid_grant',
      'Token was not issued to this client',
    );
    const late = await codeGrant();
    offsetMs = 6 * 60_000;
    const proof = dpopProof(dpopKey, { htm: 'POST', htu: TOKEN(), nonce: await asNonce(), iat: nowSec(offsetMs) });
    const assertion = clientAssertion(clientKey, clientId, sandbox.url, {
      iat: nowSec(offsetMs),
      exp: nowSec(offsetMs) + 60,
    });
    const res = await postForm(
      TOKEN(),
      {
        grant_type: 'authorization_code',
        code: late.code,
        code_verifier: late.verifier,
        redirect_uri: late.redirect_uri,
        client_id: clientId,
        client_assertion_type: JWT_BEARER,
        client_assertion: assertion,
      },
      { dpop: proof },
    );
    expectOAuthError(res, 400, 'invalid_grant', 'This code has expired');
  });

  test('when the token request has no DPoP proof, then invalid_dpop_proof', async () => {
    const { code, verifier, redirect_uri } = await codeGrant();
    const res = await postForm(TOKEN(), {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri,
      client_id: clientId,
      client_assertion_type: JWT_BEARER,
      client_assertion: clientAssertion(clientKey, clientId, sandbox.url),
    });
    expectOAuthError(res, 401, 'invalid_dpop_proof', 'DPoP proof required');
  });

  test('when a client without the refresh_token grant refreshes, then invalid_grant', async () => {
    const id = docs.confidentialClient('/no-refresh.json', clientKey.jwk, { grant_types: ['authorization_code'] });
    const res = await sendToken({ grant_type: 'refresh_token', refresh_token: `ref-${'0'.repeat(64)}` }, dpopKey, id);
    expectOAuthError(res, 400, 'invalid_grant', '"refresh_token" grant type is not allowed for this client');
  });

  test('when a refresh comes with another DPoP key, then invalid_grant and the session ends', async () => {
    const t = await tokens();
    expectOAuthError(
      await sendToken({ grant_type: 'refresh_token', refresh_token: t.refresh_token }, esKey()),
      400,
      'invalid_grant',
      'DPoP proof does not match the expected JKT',
    );
    expectOAuthError(
      await sendToken({ grant_type: 'refresh_token', refresh_token: t.refresh_token }),
      400,
      'invalid_grant',
      'Invalid refresh token',
    );
  });

  test('when two requests use one code challenge, then the second exchange is refused', async () => {
    const { fields, verifier } = parFields();
    const first = await approve(fields);
    const second = await approve({ ...parFields().fields, code_challenge: fields.code_challenge });
    const grant = (back: URL) => ({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: fields.redirect_uri,
    });
    expect((await sendToken(grant(first.back))).status).toBe(200);
    expectOAuthError(await sendToken(grant(second.back)), 400, 'invalid_grant', 'Code challenge already used');
  });
});

describe('DPoP at the PDS', () => {
  const CREATE = () => url('/bluesky/xrpc/com.atproto.repo.createRecord');
  const record = () =>
    JSON.stringify({
      repo: did,
      collection: 'app.bsky.feed.post',
      record: { $type: 'app.bsky.feed.post', text: 'hi', createdAt: new Date().toISOString() },
    });

  async function create(authorization: string, proof?: string) {
    const res = await fetch(CREATE(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, ...(proof && { dpop: proof }) },
      body: record(),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as { error: string; message: string } };
  }

  async function resourceNonce(token: string): Promise<string> {
    const res = await create(`DPoP ${token}`, dpopProof(dpopKey, { htm: 'POST', htu: CREATE(), accessToken: token }));
    expect(res).toMatchObject({ status: 401, body: { error: 'use_dpop_nonce' } });
    expect(res.headers.get('www-authenticate')).toBe(
      'DPoP algs="ES256", error="use_dpop_nonce", error_description="Authorization server requires nonce in DPoP proof"',
    );
    return res.headers.get('dpop-nonce')!;
  }

  test('when the proof has no nonce, then 401 use_dpop_nonce; with the PDS nonce (not the authorization server one) the post goes through once', async () => {
    const t = await tokens();
    const nonce = await resourceNonce(t.access_token);
    const asNonceValue = await asNonce();
    expect(
      (
        await create(
          `DPoP ${t.access_token}`,
          dpopProof(dpopKey, { htm: 'POST', htu: CREATE(), accessToken: t.access_token, nonce: asNonceValue }),
        )
      ).body.error,
    ).toBe('use_dpop_nonce');
    const proof = dpopProof(dpopKey, { htm: 'POST', htu: CREATE(), accessToken: t.access_token, nonce });
    expect((await create(`DPoP ${t.access_token}`, proof)).status).toBe(200);
    expect(await create(`DPoP ${t.access_token}`, proof)).toMatchObject({
      status: 401,
      body: { error: 'invalid_dpop_proof', message: 'DPoP proof replayed' },
    });
  });

  test('when the token comes without a proof, with a wrong ath or signed by another key, then the PDS refuses it with a DPoP challenge', async () => {
    const t = await tokens();
    const nonce = await resourceNonce(t.access_token);
    expect(await create(`DPoP ${t.access_token}`)).toMatchObject({
      status: 401,
      body: { error: 'invalid_dpop_proof', message: 'DPoP proof required' },
    });
    const wrongAth = dpopProof(dpopKey, { htm: 'POST', htu: CREATE(), accessToken: 'another', nonce });
    expect(await create(`DPoP ${t.access_token}`, wrongAth)).toMatchObject({
      status: 401,
      body: { error: 'invalid_dpop_proof', message: 'DPoP "ath" mismatch' },
    });
    const otherKey = dpopProof(esKey(), { htm: 'POST', htu: CREATE(), accessToken: t.access_token, nonce });
    const bound = await create(`DPoP ${t.access_token}`, otherKey);
    expect(bound).toMatchObject({ status: 401, body: { error: 'invalid_token', message: 'Invalid DPoP key binding' } });
    expect(bound.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  test('when a DPoP token is sent as Bearer, or a session JWT as DPoP, then each is refused as the reference PDS refuses it', async () => {
    const t = await tokens();
    expect(await create(`Bearer ${t.access_token}`)).toMatchObject({
      status: 400,
      body: { error: 'InvalidToken', message: 'Token could not be verified' },
    });
    const session = await call(url('/bluesky/xrpc/com.atproto.server.createSession'), {
      json: { identifier: user.handle, password: user.accessToken },
    });
    const jwt = session.body.accessJwt as string;
    expect(await call(url('/bluesky/xrpc/com.atproto.server.getSession'), { token: jwt })).toMatchObject({
      status: 200,
      body: { did, handle: 'refused-writer.bsky.social', active: true },
    });
    const nonce = await resourceNonce(jwt);
    const res = await create(
      `DPoP ${jwt}`,
      dpopProof(dpopKey, { htm: 'POST', htu: CREATE(), accessToken: jwt, nonce }),
    );
    expect(res).toMatchObject({ status: 401, body: { error: 'invalid_token', message: 'Invalid token' } });
  });

  test('when the access token has expired, then invalid_token', async () => {
    const t = await tokens();
    offsetMs = 16 * 60_000;
    const nonce = (await create(`DPoP ${t.access_token}`)).headers.get('dpop-nonce')!;
    const proof = dpopProof(dpopKey, {
      htm: 'POST',
      htu: CREATE(),
      accessToken: t.access_token,
      nonce,
      iat: nowSec(offsetMs),
    });
    const res = await create(`DPoP ${t.access_token}`, proof);
    expect(res).toMatchObject({
      status: 401,
      body: { error: 'invalid_token', message: expect.stringMatching(/^Token expired at /) },
    });
  });
});
