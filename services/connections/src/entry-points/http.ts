import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import type { Logger } from '@postbus/kit';
import { completeAuthorization, chooseAccount } from '../connect/complete-authorization.use-case';
import type { ConnectPorts } from '../connect/connect.ports';
import { randomSecret, sameSecret } from '../connect/handoff-secrets';
import { inspectLink, startAuthorization } from '../connect/start-authorization.use-case';
import { connectPage, errorPage, linkProblemPage, outcomePage } from './handoff-pages';

const CSRF_COOKIE = 'pb_connect_csrf';
const BINDING_COOKIE = 'pb_connect_binding';

/**
 * The handoff a person sees, behind the gateway under {base_url}:
 * - GET  /connect/{requestId}: the landing page (reading it uses nothing, so link previews are harmless)
 * - POST /connect/{requestId}: uses the link once and redirects to the platform's consent page
 * - GET  /oauth/callback/{platform}: the platform's redirect back; stores the profile
 * - POST /oauth/callback/{platform}/choose: picks the Page or channel when the grant reaches several
 */
export function createHandoffApp(ports: ConnectPorts, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const secure = ports.baseUrl.startsWith('https:');
  const cookie = (path: string, maxAgeMs: number) => ({ httpOnly: true, sameSite: 'lax' as const, secure, path, maxAge: maxAgeMs });
  const authorizeOrigins = Object.values(ports.clients).map((c) => new URL(c.authorizeUrl({ redirectUri: ports.baseUrl, state: 'x' })).origin);

  const html = (res: Response, status: number, body: string, formTargets: string[] = []) => {
    res
      .status(status)
      .set({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; form-action 'self' ${formTargets.join(' ')}; frame-ancestors 'none'; base-uri 'none'`,
      })
      .send(body);
  };

  app.get('/connect/:requestId', async (req: Request<{ requestId: string }>, res) => {
    const link = await inspectLink(ports, req.params.requestId);
    if (!link.ok) {
      const p = linkProblemPage(link.problem);
      return html(res, p.status, p.html);
    }
    const csrf = randomSecret();
    res.cookie(CSRF_COOKIE, csrf, cookie('/connect', ports.linkTtlSeconds * 1000));
    html(res, 200, connectPage(link.platform, '', csrf, new Date(link.request.expires_at)), authorizeOrigins);
  });

  app.post('/connect/:requestId', express.urlencoded({ extended: false, limit: '4kb' }), async (req: Request<{ requestId: string }>, res) => {
    if (!sameSecret(cookiesOf(req)[CSRF_COOKIE], (req.body as { csrf?: string } | undefined)?.csrf)) {
      return html(res, 403, errorPage('Open the link again', 'This form expired or was not sent from the connection page. Open the connection link again.'));
    }
    const started = await startAuthorization(ports, req.params.requestId);
    if (!started.ok) {
      const p = linkProblemPage(started.problem);
      return html(res, p.status, p.html);
    }
    res.clearCookie(CSRF_COOKIE, { path: '/connect' });
    res.cookie(BINDING_COOKIE, started.browserBinding, cookie('/oauth/callback', 15 * 60_000));
    res.set('cache-control', 'no-store').redirect(303, started.authorizeUrl);
  });

  app.get('/oauth/callback/:platform', async (req: Request<{ platform: string }>, res) => {
    const q = req.query as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    const outcome = await completeAuthorization(ports, {
      platform: req.params.platform,
      state: text(q.state),
      code: text(q.code),
      error: text(q.error),
      errorDescription: text(q.error_description),
      browserBinding: cookiesOf(req)[BINDING_COOKIE],
    });
    const p = outcomePage(outcome, `${req.params.platform}/choose`);
    html(res, p.status, p.html);
  });

  app.post('/oauth/callback/:platform/choose', express.urlencoded({ extended: false, limit: '4kb' }), async (req: Request<{ platform: string }>, res) => {
    const body = (req.body ?? {}) as { state?: string; account?: string };
    const outcome = await chooseAccount(ports, { platform: req.params.platform, state: body.state, platformUserId: body.account, browserBinding: cookiesOf(req)[BINDING_COOKIE] });
    const p = outcomePage(outcome);
    html(res, p.status, p.html);
  });

  app.use((_req, res) => html(res, 404, errorPage('Not found', 'There is no page here.')));
  app.use(((err, _req, res, _next) => {
    logger.error('handoff page failed', { err: (err as Error)?.stack ?? String(err) });
    if (!res.headersSent) html(res, 500, errorPage('Something went wrong', 'The connection could not continue. Ask for a new connection link and try again.'));
  }) as ErrorRequestHandler);
  return app;
}

function cookiesOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    try {
      out[name] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      /* a malformed cookie is ignored */
    }
  }
  return out;
}
