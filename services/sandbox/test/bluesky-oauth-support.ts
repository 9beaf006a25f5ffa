import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the atproto OAuth tests need beside a strict client library: a server for client metadata
 * documents, ES256 keys, and hand-made DPoP proofs and client assertions for the requests a correct
 * library would never send.
 */

export interface EsKey {
  privateKey: KeyObject;
  jwk: { kty: string; crv: string; x: string; y: string };
}

export function esKey(): EsKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as EsKey['jwk'];
  return { privateKey, jwk: { kty, crv, x, y } };
}

export function signJwt(key: EsKey, header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const input = `${Buffer.from(JSON.stringify({ alg: 'ES256', ...header })).toString('base64url')}.${Buffer.from(
    JSON.stringify(payload),
  ).toString('base64url')}`;
  const signature = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

export const nowSec = (offsetMs = 0) => Math.floor((Date.now() + offsetMs) / 1000);

/** A DPoP proof (RFC 9449 4.2) for method and URL, with whatever the test changes. */
export function dpopProof(
  key: EsKey,
  claims: { htm: string; htu: string; nonce?: string; accessToken?: string; jti?: string; iat?: number },
  header: Record<string, unknown> = {},
): string {
  const { accessToken, ...rest } = claims;
  return signJwt(
    key,
    { typ: 'dpop+jwt', jwk: key.jwk, ...header },
    {
      jti: randomBytes(12).toString('base64url'),
      iat: nowSec(),
      ...rest,
      ...(accessToken && { ath: createHash('sha256').update(accessToken).digest('base64url') }),
    },
  );
}

/** A private_key_jwt client assertion (RFC 7523) for the issuer. */
export function clientAssertion(
  key: EsKey,
  clientId: string,
  issuer: string,
  overrides: Record<string, unknown> = {},
  kid: string | undefined = 'client-key',
): string {
  const iat = nowSec();
  return signJwt(key, kid ? { kid } : {}, {
    iss: clientId,
    sub: clientId,
    aud: issuer,
    jti: randomBytes(12).toString('base64url'),
    iat,
    exp: iat + 60,
    ...overrides,
  });
}

export interface PostAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(fields) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Client metadata documents (and JWK sets) served over loopback, as a client's web server would. */
export class DocumentServer {
  readonly docs = new Map<string, { body: unknown; status?: number; type?: string }>();
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const doc = this.docs.get(req.url ?? '');
      if (!doc) return void res.writeHead(404).end();
      res
        .writeHead(doc.status ?? 200, { 'content-type': doc.type ?? 'application/json' })
        .end(JSON.stringify(doc.body));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Serves a confidential web client's metadata at `path` and answers its client_id. */
  confidentialClient(path: string, publicJwk: object, changes: Record<string, unknown> = {}): string {
    const clientId = `${this.url}${path}`;
    this.docs.set(path, {
      body: {
        client_id: clientId,
        client_name: 'Postbus test client',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'atproto transition:generic',
        redirect_uris: [`${this.url}/callback`],
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'ES256',
        dpop_bound_access_tokens: true,
        jwks: { keys: [{ ...publicJwk, kid: 'client-key', use: 'sig', alg: 'ES256' }] },
        ...changes,
      },
    });
    return clientId;
  }
}

/** PKCE S256 (RFC 7636): a verifier and its challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
