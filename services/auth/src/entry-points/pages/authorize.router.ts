import { Router, type Request, type Response } from 'express';
import {
  AUTHORIZATION_PARAMS,
  checkAuthorizationRequest,
  errorRedirect,
  redirectWith,
  type AuthorizationRequestCheck,
  type AuthorizationRequestDeps,
} from '../../oauth/authorization-request';
import type { AuthorizationServer } from '../../oauth/authorization-server';
import { consentPage } from './consent.page';
import { messagePage } from './message.page';
import { csrfToken, currentSession, nonceOf, requireCsrf } from './page-context';

export interface AuthorizePorts extends AuthorizationRequestDeps {
  issuer: string;
  server: AuthorizationServer;
}

/** The request's own parameters, nothing else (the consent form echoes exactly these). */
function paramsOf(source: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of AUTHORIZATION_PARAMS) if (typeof source[k] === 'string') out[k] = source[k];
  return out;
}

const strictEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The authorize URL to come back to after signing in, encoded so the sign-in page accepts it as a same-site path. */
function authorizePath(params: Record<string, string>): string {
  return `/oauth/authorize?${Object.entries(params)
    .map(([k, v]) => `${k}=${strictEncode(v)}`)
    .join('&')}`;
}

/** A consent form posts here and the answer redirects to the client: the CSP must allow that target. */
function allowFormTarget(res: Response, redirectUri: string): void {
  const url = new URL(redirectUri);
  const target = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  const csp = String(res.getHeader('Content-Security-Policy') ?? '');
  res.setHeader('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${target}`));
}

/**
 * The authorization endpoint: checks the request, signs the person in (the settings sign-in,
 * coming back here), asks for consent, then redirects to the client with a code, the state and
 * the issuer — or with an error.
 */
export function authorizeRouter(ports: AuthorizePorts): Router {
  const router = Router();

  const refuse = (res: Response, check: Exclude<AuthorizationRequestCheck, { ok: true }>) => {
    if (check.redirect) return res.redirect(303, errorRedirect(check, ports.issuer));
    res
      .status(400)
      .type('html')
      .send(
        messagePage({
          nonce: nonceOf(res),
          title: 'This sign-in link cannot be used',
          message: `${check.error.name}: ${check.error.message} Go back to the application and start again.`,
        }),
      );
  };
  const csrf = requireCsrf((_req, res) => {
    res
      .status(403)
      .type('html')
      .send(
        messagePage({
          nonce: nonceOf(res),
          title: 'Please try again',
          message:
            'This form has expired or did not come from a Postbus page. Go back to the application and start again.',
        }),
      );
  });

  router.get('/oauth/authorize', async (req: Request, res: Response) => {
    const params = paramsOf(req.query);
    const check = await checkAuthorizationRequest(req.query, ports);
    if (!check.ok) return refuse(res, check);
    const session = currentSession(res);
    if (!session) return res.redirect(303, `/signin?next=${encodeURIComponent(authorizePath(params))}`);
    allowFormTarget(res, check.request.redirectUri);
    res.type('html').send(
      consentPage({
        nonce: nonceOf(res),
        csrf: csrfToken(req, res),
        email: session.email,
        request: check.request,
        params,
      }),
    );
  });

  router.post('/oauth/authorize', csrf, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const session = currentSession(res);
    if (!session) return res.redirect(303, `/signin?next=${encodeURIComponent(authorizePath(paramsOf(body)))}`);
    const check = await checkAuthorizationRequest(body, ports);
    if (!check.ok) return refuse(res, check);
    const { request } = check;
    if (body.decision !== 'allow') {
      return res.redirect(
        303,
        redirectWith(
          request.redirectUri,
          { error: 'access_denied', error_description: 'The person declined to give access.', state: request.state },
          ports.issuer,
        ),
      );
    }
    res.redirect(303, await ports.server.approve(request, { id: session.userId, accountId: session.accountId }));
  });

  return router;
}
