import cookieParser from 'cookie-parser';
import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type Response,
} from 'express';
import { isAppError } from '@postbus/contracts';
import { httpErrorFields } from '@postbus/service';
import type { Logger } from '@postbus/kit';
import type { SessionRepository } from '../sessions/session.repository';
import { messagePage } from './pages/message.page';
import { loadSession, nonceOf, pageCookies, pageHeaders, usePageCookies } from './pages/page-context';
import { pagesRouter, type PagesPorts } from './pages/pages.router';
import { authorizeRouter, type AuthorizePorts } from './pages/authorize.router';
import { oauthApiRouter, type OAuthApiPorts } from './oauth-api.router';

/**
 * Auth's own HTTP listener, reached through the gateway (which streams these paths here): the
 * human pages (sign-up, sign-in, settings, OAuth consent) and the authorization server's endpoints.
 */
export function createHttpApp(
  ports: PagesPorts & { sessions: SessionRepository; logger: Logger; oauth: OAuthApiPorts & AuthorizePorts },
): Express {
  const app = express();
  app.disable('x-powered-by');
  // Only the gateway reaches this listener; it says which scheme the browser used.
  app.set('trust proxy', true);
  app.use(oauthApiRouter(ports.oauth));
  app.use(pageHeaders);
  app.use(cookieParser());
  app.use(usePageCookies(pageCookies(ports.config.PUBLIC_BASE_URL)));
  app.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 200 }));
  app.use(loadSession(ports.sessions));
  app.use(pagesRouter(ports));
  app.use(authorizeRouter(ports.oauth));

  app.use((_req, res) => {
    res
      .status(404)
      .type('html')
      .send(messagePage({ nonce: nonceOf(res), title: 'Not found', message: 'There is no page here.' }));
  });
  app.use(((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = isAppError(err);
    const fields = httpErrorFields(err);
    const status = known
      ? err.status
      : fields.status === 413 || fields.type === 'entity.too.large'
        ? 413
        : fields.status === 400
          ? 400
          : 500;
    if (status >= 500) ports.logger.error('page failed', { err: (err instanceof Error && err.stack) || String(err) });
    if (res.headersSent) return;
    const message =
      known && status < 500
        ? err.message
        : status === 413
          ? 'The form is too large.'
          : status === 400
            ? 'The form could not be read.'
            : 'Something went wrong on our side. Please try again.';
    res
      .status(status)
      .type('html')
      .send(messagePage({ nonce: nonceOf(res) ?? '', title: status === 404 ? 'Not found' : 'Sorry', message }));
  }) as ErrorRequestHandler);
  return app;
}
