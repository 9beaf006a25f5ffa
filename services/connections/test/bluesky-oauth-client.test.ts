import { newDpopKey } from '@postbus/platforms';
import { blueskyClientMetadata, blueskyJwks, blueskyOAuthOptions } from '../src/connect/bluesky-oauth-client';
import { readConfig } from '../src/config';

const base = {
  POSTBUS_ENV: 'development' as const,
  BLUESKY_OAUTH_CLIENT_KEY: '',
  BLUESKY_PLC_URL: 'https://plc.directory',
  BLUESKY_SERVICE_URL: 'https://bsky.social',
  PLATFORM_HTTP_TIMEOUT_MS: 10_000,
};

describe('Postbus as a Bluesky OAuth client', () => {
  test('when a client key is configured, then the client is confidential and its metadata and key set are served without the private key', () => {
    const key = { ...newDpopKey(), kid: 'postbus-1' };
    const options = blueskyOAuthOptions({
      ...base,
      PUBLIC_BASE_URL: 'https://postbus.example',
      BLUESKY_OAUTH_CLIENT_KEY: JSON.stringify(key),
    });
    expect(options?.client).toMatchObject({
      clientId: 'https://postbus.example/oauth/bluesky/client-metadata.json',
      redirectUri: 'https://postbus.example/oauth/callback/bluesky',
      scope: 'atproto transition:generic',
    });
    expect(blueskyClientMetadata(options, 'https://postbus.example')).toEqual({
      client_id: 'https://postbus.example/oauth/bluesky/client-metadata.json',
      client_name: 'Postbus',
      client_uri: 'https://postbus.example',
      application_type: 'web',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['https://postbus.example/oauth/callback/bluesky'],
      scope: 'atproto transition:generic',
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks_uri: 'https://postbus.example/oauth/bluesky/jwks.json',
      dpop_bound_access_tokens: true,
    });
    expect(blueskyJwks(options)).toEqual({
      keys: [{ kty: 'EC', crv: 'P-256', x: key.x, y: key.y, kid: 'postbus-1', alg: 'ES256', use: 'sig' }],
    });
  });

  test('when no key is configured, then a run on 127.0.0.1 is a loopback client, and production, localhost or a public address offers none', () => {
    const local = blueskyOAuthOptions({ ...base, PUBLIC_BASE_URL: 'http://127.0.0.1:3000' });
    expect(local?.client).toEqual({
      clientId:
        'http://localhost?redirect_uri=http%3A%2F%2F127.0.0.1%3A3000%2Foauth%2Fcallback%2Fbluesky&scope=atproto%20transition%3Ageneric',
      redirectUri: 'http://127.0.0.1:3000/oauth/callback/bluesky',
      scope: 'atproto transition:generic',
    });
    expect(blueskyClientMetadata(local, 'http://127.0.0.1:3000')).toBeUndefined();
    // The handoff's cookies are set on the host the person opened; the loopback redirect comes back to an IP literal.
    expect(blueskyOAuthOptions({ ...base, PUBLIC_BASE_URL: 'http://localhost:3000' })).toBeUndefined();
    expect(blueskyOAuthOptions({ ...base, PUBLIC_BASE_URL: 'https://postbus.example' })).toBeUndefined();
    expect(
      blueskyOAuthOptions({ ...base, POSTBUS_ENV: 'production', PUBLIC_BASE_URL: 'http://127.0.0.1:3000' }),
    ).toBeUndefined();
  });

  test('when the configured client key is no private ES256 JWK with a kid, then the configuration is refused', () => {
    const { kid: _kid, ...noKid } = { ...newDpopKey(), kid: 'x' };
    expect(() => readConfig({ BLUESKY_OAUTH_CLIENT_KEY: JSON.stringify(noKid) })).toThrow(/BLUESKY_OAUTH_CLIENT_KEY/);
    expect(() => readConfig({ BLUESKY_OAUTH_CLIENT_KEY: 'not json' })).toThrow(/BLUESKY_OAUTH_CLIENT_KEY/);
  });
});
