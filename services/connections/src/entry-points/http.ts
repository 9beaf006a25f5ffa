import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import type { Logger } from '@postbus/kit';
import { completeAuthorization, chooseAccount } from '../connect/complete-authorization.use-case';
import type { ConnectPorts } from '../connect/connect.ports';
import { randomSecret, sameSecret } from '../connect/handoff-secrets';
import { inspectLink, startAuthorization, type LinkProblem } from '../connect/start-authorization.use-case';
import { connectWithAppPassword } from '../connect/connect-with-app-password.use-case';
import { startMastodonAuthorization } from '../connect/start-mastodon-authorization.use-case';
import { startBlueskySignIn } from '../connect/start-bluesky-sign-in.use-case';
import {
  BLUESKY_CLIENT_METADATA_PATH,
  BLUESKY_JWKS_PATH,
  blueskyClientMetadata,
  blueskyJwks,
} from '../connect/bluesky-oauth-client';
import { mastodonTrustedOrigin } from '@postbus/platforms';
import {
  blueskyConnectPage,
  connectPage,
  errorPage,
  linkProblemPage,
  mastodonConnectPage,
  outcomePage,
} from './handoff-pages';

const CSRF_COOKIE = 'pb_connect_csrf';
const BINDING_COOKIE = 'pb_connect_binding';

/**
 * The handoff a person sees, behind the gateway under {base_url}:
 * - GET  /connect/{requestId}: the landing page (reading it uses nothing, so link previews are harmless)
 * - POST /connect/{requestId}: uses the link once and redirects to the platform's consent page;
 *   for Bluesky, signs in with the handle and app password the form sent and stores the profile
 *   for Mastodon, registers Postbus on the instance the form names (once per instance) and redirects to its consent page
 *   for Bluesky with a handle alone ("Sign in with Bluesky"), pushes the OAuth request to the account's authorization server and redirects there
 * - GET  /oauth/callback/{platform}: the platform's redirect back; stores the profile
 * - GET  /oauth/bluesky/client-metadata.json, /oauth/bluesky/jwks.json: Postbus as an atproto OAuth client
 * - POST /oauth/callback/{platform}/choose: picks the Page or channel when the grant reaches several
 */
export function createHandoffApp(ports: ConnectPorts, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const h = handoffContext(ports);

  app.get('/connect/:requestId', async (req: Request<{ requestId: string }>, res) => {
    const link = await inspectLink(ports, req.params.requestId);
    if (!link.ok) {
      const p = linkProblemPage(link.problem);
      return sendPage(res, p.status, p.html);
    }
    const csrf = randomSecret();
    res.cookie(CSRF_COOKIE, csrf, h.cookie('/connect', ports.linkTtlSeconds * 1000));
    if (link.platform === 'bluesky')
      return sendPage(
        res,
        200,
        blueskyConnectPage('', csrf, new Date(link.request.expires_at), undefined, h.blueskyOAuth),
        h.blueskyOrigins,
      );
    if (link.platform === 'mastodon')
      return sendPage(res, 200, mastodonConnectPage('', csrf, new Date(link.request.expires_at)), h.mastodonOrigins);
    sendPage(res, 200, connectPage(link.platform, '', csrf, new Date(link.request.expires_at)), h.authorizeOrigins);
  });

  app.post(
    '/connect/:requestId',
    express.urlencoded({ extended: false, limit: '4kb' }),
    (req: Request<{ requestId: string }>, res) => submitConnectForm(h, req, res),
  );

  app.get('/oauth/callback/:platform', async (req: Request<{ platform: string }>, res) => {
    const q = req.query as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    const outcome = await completeAuthorization(ports, {
      platform: req.params.platform,
      state: text(q.state),
      code: text(q.code),
      error: text(q.error),
      errorDescription: text(q.error_description),
      iss: text(q.iss),
      browserBinding: cookiesOf(req)[BINDING_COOKIE],
    });
    const p = outcomePage(outcome, `${req.params.platform}/choose`);
    sendPage(res, p.status, p.html);
  });

  app.post(
    '/oauth/callback/:platform/choose',
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req: Request<{ platform: string }>, res) => {
      const body = (req.body ?? {}) as { state?: string; account?: string };
      const outcome = await chooseAccount(ports, {
        platform: req.params.platform,
        state: body.state,
        platformUserId: body.account,
        browserBinding: cookiesOf(req)[BINDING_COOKIE],
      });
      const p = outcomePage(outcome);
      sendPage(res, p.status, p.html);
    },
  );

  serveBlueskyClientMetadata(app, ports);
  app.use((_req, res) => sendPage(res, 404, errorPage('Not found', 'There is no page here.')));
  app.use(((err, _req, res, _next) => {
    logger.error('handoff page failed', { err: (err as Error)?.stack ?? String(err) });
    if (!res.headersSent)
      sendPage(
        res,
        500,
        errorPage(
          'Something went wrong',
          'The connection could not continue. Ask for a new connection link and try again.',
        ),
      );
  }) as ErrorRequestHandler);
  return app;
}

/** The client metadata document and key set of Postbus as a confidential atproto OAuth client (https://atproto.com/specs/oauth#clients). */
function serveBlueskyClientMetadata(app: Express, ports: ConnectPorts): void {
  app.get(BLUESKY_CLIENT_METADATA_PATH, (_req, res) =>
    sendJson(res, blueskyClientMetadata(ports.clients.blueskyOAuth, ports.baseUrl)),
  );
  app.get(BLUESKY_JWKS_PATH, (_req, res) => sendJson(res, blueskyJwks(ports.clients.blueskyOAuth)));
}

type Handoff = ReturnType<typeof handoffContext>;

/** What every handoff route shares: cookie settings and the origins a page's form may lead to. */
function handoffContext(ports: ConnectPorts) {
  const secure = ports.baseUrl.startsWith('https:');
  return {
    ports,
    cookie: (path: string, maxAgeMs: number) => ({
      httpOnly: true,
      sameSite: 'lax' as const,
      secure,
      path,
      maxAge: maxAgeMs,
    }),
    // A Mastodon instance is whichever one the person names: the form may lead to any https origin (the sandbox's own origin when configured).
    mastodonOrigins: [mastodonTrustedOrigin(ports.clients.mastodon.instances) ?? 'https:'],
    // Signing in with Bluesky leads to whichever authorization server the account's PDS names (the sandbox's when configured).
    blueskyOAuth: Boolean(ports.clients.blueskyOAuth),
    blueskyOrigins: ['https:', ...(ports.clients.blueskyOAuth?.access.trustedOrigins ?? [])],
    authorizeOrigins: Object.values(ports.clients).flatMap((c) =>
      'authorizeUrl' in c && !('registerApp' in c)
        ? [new URL(c.authorizeUrl({ redirectUri: ports.baseUrl, state: 'x' })).origin]
        : [],
    ),
  };
}

function sendJson(res: Response, body: unknown): void {
  if (!body) {
    sendPage(res, 404, errorPage('Not found', 'There is no page here.'));
    return;
  }
  res.status(200).set({ 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' }).json(body);
}

function sendPage(res: Response, status: number, body: string, formTargets: string[] = []): void {
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
}

interface ConnectForm {
  csrf?: string;
  identifier?: string;
  appPassword?: string;
  instance?: string;
  /** "Sign in with Bluesky": the handle typed beside the app-password form. */
  handle?: string;
}

/** POST /connect/{requestId}: the link used once, then the platform's consent page, Bluesky's sign-in, or Mastodon's instance step. */
async function submitConnectForm(h: Handoff, req: Request<{ requestId: string }>, res: Response): Promise<void> {
  const { ports } = h;
  if (!sameSecret(cookiesOf(req)[CSRF_COOKIE], (req.body as { csrf?: string } | undefined)?.csrf)) {
    return sendPage(
      res,
      403,
      errorPage(
        'Open the link again',
        'This form expired or was not sent from the connection page. Open the connection link again.',
      ),
    );
  }
  const form = req.body as ConnectForm;
  if (form.instance !== undefined) {
    const started = await startMastodonAuthorization(ports, req.params.requestId, form.instance);
    const step = await formStep<Extract<typeof started, Retype>>(
      ports,
      req.params.requestId,
      started,
      (expiresAt, retype) => mastodonConnectPage('', form.csrf ?? '', expiresAt, retype.reason, retype.instance),
    );
    if (step.kind === 'page') return sendPage(res, step.status, step.html, h.mastodonOrigins);
    return redirectToConsent(h, res, step);
  }
  if (form.handle !== undefined) {
    const started = await startBlueskySignIn(ports, req.params.requestId, form.handle);
    const step = await formStep<Extract<typeof started, Retype>>(
      ports,
      req.params.requestId,
      started,
      (expiresAt, retype) => blueskyConnectPage('', form.csrf ?? '', expiresAt, retype.reason, h.blueskyOAuth),
    );
    if (step.kind === 'page') return sendPage(res, step.status, step.html, h.blueskyOrigins);
    return redirectToConsent(h, res, step);
  }
  if (form.appPassword !== undefined) {
    const page = await blueskyFormStep(ports, req.params.requestId, form);
    if (page.used) res.clearCookie(CSRF_COOKIE, { path: '/connect' });
    return sendPage(res, page.status, page.html);
  }
  const started = await startAuthorization(ports, req.params.requestId);
  if (!started.ok) {
    const p = linkProblemPage(started.problem);
    return sendPage(res, p.status, p.html);
  }
  redirectToConsent(h, res, started);
}

function redirectToConsent(h: Handoff, res: Response, started: { authorizeUrl: string; browserBinding: string }): void {
  res.clearCookie(CSRF_COOKIE, { path: '/connect' });
  res.cookie(BINDING_COOKIE, started.browserBinding, h.cookie('/oauth/callback', 15 * 60_000));
  res.set('cache-control', 'no-store').redirect(303, started.authorizeUrl);
}

/** Bluesky's app password form: the outcome page, or the form again (the link still usable) when it was filled in wrongly. */
async function blueskyFormStep(
  ports: ConnectPorts,
  requestId: string,
  form: ConnectForm,
): Promise<{ status: number; html: string; used: boolean }> {
  const outcome = await connectWithAppPassword(ports, requestId, form);
  if (outcome.kind === 'retype') {
    const link = await inspectLink(ports, requestId);
    if (link.ok)
      return {
        status: 400,
        html: blueskyConnectPage(
          '',
          form.csrf ?? '',
          new Date(link.request.expires_at),
          outcome.reason,
          Boolean(ports.clients.blueskyOAuth),
        ),
        used: false,
      };
    return { ...linkProblemPage(link.problem), used: false };
  }
  return { ...(outcome.kind === 'link' ? linkProblemPage(outcome.problem) : outcomePage(outcome)), used: true };
}

type FormStep =
  { kind: 'page'; status: number; html: string } | { kind: 'redirect'; authorizeUrl: string; browserBinding: string };
type Retype = { kind: 'retype'; reason: string };

/**
 * A handoff form's next step (Mastodon's instance, "Sign in with Bluesky"'s handle): the consent URL,
 * the link's problem page, or the form again (400) saying what to change while the link stays usable.
 */
async function formStep<R extends Retype>(
  ports: ConnectPorts,
  requestId: string,
  started:
    { kind: 'redirect'; authorizeUrl: string; browserBinding: string } | { kind: 'link'; problem: LinkProblem } | R,
  formAgain: (expiresAt: Date, retype: R) => string,
): Promise<FormStep> {
  if (started.kind === 'redirect') return started;
  if (started.kind === 'link')
    return { kind: 'page', ...linkProblemPage((started as { problem: LinkProblem }).problem) };
  const link = await inspectLink(ports, requestId);
  if (!link.ok) return { kind: 'page', ...linkProblemPage(link.problem) };
  return { kind: 'page', status: 400, html: formAgain(new Date(link.request.expires_at), started) };
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
