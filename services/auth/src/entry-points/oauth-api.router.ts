import express, {
  Router,
  type ErrorRequestHandler,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { AppError, deprecationHeaders, isAppError, type McpToken } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { bearerToken, bodyFields, httpErrorFields } from '@postbus/service';
import { authorizationServerMetadata } from '../oauth/authorization-server-metadata';
import type { AuthorizationServer } from '../oauth/authorization-server';
import { basicCredentials, type ClientCredentials } from '../oauth/client-credentials';
import type { ClientDirectory } from '../oauth/client-directory';
import type { ClientRepository } from '../oauth/client.repository';
import type { GrantRepository } from '../oauth/grant.repository';
import { isOAuthError } from '../oauth/oauth-errors';
import { registerClient } from '../oauth/register-client.use-case';
import { revokeToken } from '../oauth/revoke-token.use-case';

export interface OAuthApiPorts {
  issuer: string;
  server: AuthorizationServer;
  clients: ClientDirectory;
  registeredClients: ClientRepository;
  grants: GrantRepository;
  /** Deprecated exchange: an API key → a short-lived JWT. */
  exchangeKey(apiKey: string): Promise<McpToken>;
  logger: Logger;
}

const OAUTH_PATHS = ['/.well-known/oauth-authorization-server', '/oauth/token', '/oauth/register', '/oauth/revoke'];

/** Browser-based agents call these from their own origin; they carry no cookies, so any origin may. */
const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
  if (req.method === 'OPTIONS') return void res.status(204).end();
  next();
};

/** Client credentials from HTTP Basic (form-decoded, RFC 6749 §2.3.1) or the form body. */
function clientCredentials(req: Request): ClientCredentials {
  const basic = basicCredentials(req.header('authorization'));
  if (basic) return basic;
  const body = bodyFields(req);
  return {
    clientId: typeof body.client_id === 'string' ? body.client_id : undefined,
    clientSecret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
  };
}

/**
 * The authorization server's machine endpoints: metadata (RFC 8414), token, registration (RFC 7591),
 * revocation (RFC 7009), and the deprecated API-key exchange. Answers are JSON, errors OAuth's
 * `{ error, error_description }` (the exchange answers the REST `{ error, code }`).
 */
export function oauthApiRouter(ports: OAuthApiPorts): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });
  const json = express.json({ limit: '16kb' });
  const metadata = authorizationServerMetadata(ports.issuer);

  router.use(OAUTH_PATHS, cors);

  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(metadata);
  });

  router.post('/oauth/token', form, async (req, res) => {
    const answer = await ports.server.token({ headers: req.headers, body: bodyFields(req) });
    res.status(answer.status).set(answer.headers).json(answer.body);
  });

  router.post('/oauth/register', json, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json(await registerClient(ports.registeredClients, req.body));
  });

  router.post('/oauth/revoke', form, async (req, res) => {
    await revokeToken(
      { clients: ports.clients, grants: ports.grants },
      { ...clientCredentials(req), token: bodyFields(req).token },
    );
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).end();
  });

  router.post('/api/auth/mcp-token', async (req, res) => {
    res.set(deprecationHeaders(`${ports.issuer}/.well-known/oauth-authorization-server`));
    res.setHeader('Cache-Control', 'no-store');
    const key = bearerToken(req);
    if (!key) throw new AppError('missing_api_key', 'Send your API key as Authorization: Bearer <key>.');
    res.json(await ports.exchangeKey(key));
  });

  router.use(((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (isOAuthError(err)) {
      // RFC 6749 §5.2: a client that tried HTTP Basic learns 401 with the scheme; otherwise 400.
      const basic = err.name === 'invalid_client' && /^Basic\s/i.test(req.header('authorization') ?? '');
      if (basic) res.setHeader('WWW-Authenticate', 'Basic realm="postbus"');
      return res.status(basic ? 401 : err.code).json({ error: err.name, error_description: err.message });
    }
    if (isAppError(err)) return res.status(err.status).json(err.toBody());
    const { type } = httpErrorFields(err);
    if (type === 'entity.parse.failed') {
      return req.path === '/oauth/register'
        ? res
            .status(400)
            .json({ error: 'invalid_client_metadata', error_description: 'The registration is not valid JSON.' })
        : res.status(400).json({ error: 'The body is not valid JSON.', code: 'invalid_json' });
    }
    if (type === 'entity.too.large')
      return res.status(413).json({ error: 'invalid_request', error_description: 'The request is too large.' });
    ports.logger.error('oauth endpoint failed', {
      path: req.path,
      err: (err instanceof Error && err.stack) || String(err),
    });
    res.status(500).json({ error: 'server_error', error_description: 'Something went wrong on our side; try again.' });
  }) as ErrorRequestHandler);
  return router;
}
