import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientMetadataDocuments, type MetadataDocumentPolicy } from '../src/oauth/client-metadata-documents';
import { redirectUriMatches, refusedRedirectUri } from '../src/oauth/redirect-uri.rules';
import { parseScopes } from '../src/oauth/oauth-scopes';

let server: Server;
let origin: string;
const hits = new Map<string, number>();
let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(404).end();

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const policy = (over: Partial<MetadataDocumentPolicy> = {}): MetadataDocumentPolicy => ({
  allowLoopback: true,
  timeoutMs: 2000,
  maxBytes: 5120,
  cacheSeconds: 300,
  ...over,
});

function serve(
  docs: Record<string, (id: string) => { status?: number; headers?: Record<string, string>; body: string }>,
) {
  handle = (req, res) => {
    const make = docs[req.url ?? ''];
    if (!make) return void res.writeHead(404).end();
    const { status, headers, body } = make(`${origin}${req.url}`);
    res.writeHead(status ?? 200, { 'content-type': 'application/json', ...headers }).end(body);
  };
}
const doc =
  (extra: Record<string, unknown> = {}) =>
  (id: string) => ({
    body: JSON.stringify({
      client_id: id,
      client_name: 'Doc client',
      redirect_uris: ['http://127.0.0.1:9000/cb'],
      ...extra,
    }),
  });

describe('client ID metadata documents', () => {
  test('when a valid document is fetched, then it becomes a public client and is reused from the cache', async () => {
    serve({ '/a.json': doc() });
    const documents = new ClientMetadataDocuments(policy());
    const client = await documents.resolve(`${origin}/a.json`);
    expect(client).toEqual({
      id: `${origin}/a.json`,
      name: 'Doc client',
      redirectUris: ['http://127.0.0.1:9000/cb'],
      grantTypes: ['authorization_code', 'refresh_token'],
      source: 'metadata_document',
    });
    await documents.resolve(`${origin}/a.json`);
    expect(hits.get('/a.json')).toBe(1);
  });

  test('when the cache time passes or the document says no-store, then it is fetched again', async () => {
    serve({ '/b.json': doc(), '/c.json': (id) => ({ ...doc()(id), headers: { 'cache-control': 'no-store' } }) });
    let now = 1_000_000;
    const documents = new ClientMetadataDocuments(policy({ cacheSeconds: 60 }), () => now);
    await documents.resolve(`${origin}/b.json`);
    now += 61_000;
    await documents.resolve(`${origin}/b.json`);
    expect(hits.get('/b.json')).toBe(2);
    await documents.resolve(`${origin}/c.json`);
    await documents.resolve(`${origin}/c.json`);
    expect(hits.get('/c.json')).toBe(2);
  });

  test('when loopback is not allowed, then an http loopback client_id is refused before any request', async () => {
    const documents = new ClientMetadataDocuments(policy({ allowLoopback: false }));
    await expect(documents.resolve(`${origin}/a.json`)).rejects.toMatchObject({
      name: 'invalid_client',
      message: expect.stringMatching(/must use https/),
    });
  });

  test('when an https client_id resolves to a private address, then it is refused without connecting', async () => {
    const documents = new ClientMetadataDocuments(
      policy({ allowLoopback: false, resolve: async () => [{ address: '10.0.0.5', family: 4 }] }),
    );
    await expect(documents.resolve('https://client.example/meta.json')).rejects.toMatchObject({
      name: 'invalid_client',
      message: expect.stringMatching(/only public internet addresses/),
    });
    const metadata = new ClientMetadataDocuments(
      policy({ allowLoopback: false, resolve: async () => [{ address: '169.254.169.254', family: 4 }] }),
    );
    await expect(metadata.resolve('https://client.example/meta.json')).rejects.toMatchObject({
      name: 'invalid_client',
    });
  });

  test('when the document redirects, is too large, is slow, or is not JSON, then it is refused', async () => {
    serve({
      '/moved.json': () => ({ status: 301, headers: { location: '/a.json' }, body: '' }),
      '/big.json': (id) => ({
        body: JSON.stringify({
          client_id: id,
          redirect_uris: ['http://127.0.0.1:9000/cb'],
          padding: 'x'.repeat(10_000),
        }),
      }),
      '/text.json': () => ({ body: 'hello' }),
    });
    const documents = new ClientMetadataDocuments(policy());
    await expect(documents.resolve(`${origin}/moved.json`)).rejects.toMatchObject({
      message: expect.stringMatching(/redirects are not followed/),
    });
    await expect(documents.resolve(`${origin}/big.json`)).rejects.toMatchObject({
      message: expect.stringMatching(/larger than 5120 bytes/),
    });
    await expect(documents.resolve(`${origin}/text.json`)).rejects.toMatchObject({
      message: expect.stringMatching(/is not JSON/),
    });
    handle = () => undefined; // never answers
    await expect(
      new ClientMetadataDocuments(policy({ timeoutMs: 200 })).resolve(`${origin}/slow.json`),
    ).rejects.toMatchObject({ name: 'invalid_client', message: expect.stringMatching(/could not be fetched/) });
  });

  test('when the document names another client_id, asks for a secret, or lists an unusable redirect URI, then it is refused', async () => {
    serve({
      '/other.json': () => ({
        body: JSON.stringify({
          client_id: 'https://other.example/c.json',
          redirect_uris: ['http://127.0.0.1:9000/cb'],
        }),
      }),
      '/secret.json': doc({ token_endpoint_auth_method: 'client_secret_basic' }),
      '/badredirect.json': doc({ redirect_uris: ['http://evil.example/cb'] }),
      '/noredirect.json': doc({ redirect_uris: [] }),
    });
    const documents = new ClientMetadataDocuments(policy());
    await expect(documents.resolve(`${origin}/other.json`)).rejects.toMatchObject({
      name: 'invalid_client',
      message: expect.stringMatching(/must be exactly its own URL/),
    });
    await expect(documents.resolve(`${origin}/secret.json`)).rejects.toMatchObject({
      message: expect.stringMatching(/is public/),
    });
    await expect(documents.resolve(`${origin}/badredirect.json`)).rejects.toMatchObject({
      message: expect.stringMatching(/use https/),
    });
    await expect(documents.resolve(`${origin}/noredirect.json`)).rejects.toMatchObject({
      message: expect.stringMatching(/lists no redirect_uris/),
    });
  });

  test('when the client_id URL has no path or a fragment, then it is refused', async () => {
    const documents = new ClientMetadataDocuments(policy());
    await expect(documents.resolve(`${origin}/`)).rejects.toMatchObject({
      message: expect.stringMatching(/needs a path/),
    });
    await expect(documents.resolve(`${origin}/a.json#x`)).rejects.toMatchObject({
      message: expect.stringMatching(/no fragment/),
    });
  });
});

describe('redirect URIs and scopes', () => {
  test('when redirect URIs are registered, then https, loopback http and reverse-domain schemes pass and the rest are refused', () => {
    for (const ok of [
      'https://app.example.com/cb',
      'http://127.0.0.1/cb',
      'http://localhost:8080/cb',
      'http://[::1]:9/cb',
      'com.example.app:/oauth',
    ])
      expect(refusedRedirectUri(ok)).toBeUndefined();
    for (const bad of [
      'http://app.example.com/cb',
      'https://app.example.com/cb#x',
      'javascript:alert(1)',
      'myapp:/cb',
      'not a uri',
      'https://user:pw@app.example.com/cb',
    ])
      expect(refusedRedirectUri(bad)).toBeDefined();
  });

  test('when a redirect URI is matched, then it must be exact except for the port of a loopback http URI', () => {
    expect(redirectUriMatches('https://app.example.com/cb', ['https://app.example.com/cb'])).toBe(true);
    expect(redirectUriMatches('https://app.example.com/cb/', ['https://app.example.com/cb'])).toBe(false);
    expect(redirectUriMatches('https://app.example.com:444/cb', ['https://app.example.com/cb'])).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:51234/cb', ['http://127.0.0.1/cb'])).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:51234/cb', ['http://127.0.0.1:8080/cb'])).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:51234/other', ['http://127.0.0.1:8080/cb'])).toBe(false);
    expect(redirectUriMatches('http://localhost:51234/cb', ['http://127.0.0.1:8080/cb'])).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:51234/cb?x=1', ['http://127.0.0.1:8080/cb'])).toBe(false);
  });

  test('when scopes are asked for, then known ones are kept in order, none means the default, and an unknown one is named', () => {
    expect(parseScopes('offline_access mcp:read')).toEqual({ ok: true, scopes: ['mcp:read', 'offline_access'] });
    expect(parseScopes(undefined)).toEqual({ ok: true, scopes: ['profile', 'mcp:read', 'mcp:write'] });
    expect(parseScopes('mcp:read post:write')).toEqual({ ok: false, unknown: ['post:write'] });
  });
});
