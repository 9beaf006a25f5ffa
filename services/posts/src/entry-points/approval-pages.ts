import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Response } from 'express';
import { AppError } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { renderApprovalPage, renderError, renderOutcome } from '../approvals/approval-page';
import type { ApprovalPorts } from '../approvals/approvals.ports';
import { decideApproval, openApproval } from '../approvals/decide-approval.use-case';

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  // same-origin, not no-referrer: with no-referrer a browser posts the form with `Origin: null`.
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

function page(res: Response, status: number, html: string): void {
  res.status(status).set(SECURITY_HEADERS).type('html').send(html);
}

/**
 * The human side of approvals, streamed by the gateway under {base_url}/approvals. The link's
 * signed token is the form's CSRF token too: a decision needs it, it works once, and a form
 * posted from another origin is refused.
 */
export function approvalPages(ports: ApprovalPorts, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  const publicOrigin = new URL(ports.publicBaseUrl).origin;

  // The page's own origin is {base_url}'s, or the host the browser used as the gateway forwards it.
  const sameOrigin: RequestHandler = (req, res, next) => {
    const from = req.get('origin');
    const host = req.get('x-forwarded-host') ?? req.get('host');
    const seen = `${req.get('x-forwarded-proto') ?? req.protocol}://${host}`;
    if (from && from !== publicOrigin && from !== seen)
      return page(res, 403, renderError('Not allowed', 'This form can only be sent from its approval page.'));
    next();
  };

  app.get('/approvals/:id', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const view = await openApproval(ports, String(req.params.id), token);
    page(res, 200, renderApprovalPage(view, token));
  });

  app.post('/approvals/:id', sameOrigin, express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    const form = req.body as { decision?: unknown; token?: unknown } | undefined;
    const decision = form?.decision;
    if (decision !== 'approve' && decision !== 'reject')
      throw new AppError('validation_error', 'Choose Approve or Reject.');
    const view = await decideApproval(ports, String(req.params.id), form?.token, decision);
    page(res, 200, renderOutcome(view));
  });

  app.use((_req, res) => page(res, 404, renderError('Not found', 'There is no page here.')));
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    if (err instanceof AppError && err.code === 'not_found')
      return page(res, 404, renderError('Link not valid', 'This approval link is not valid. Ask for a new one.'));
    if (err instanceof AppError && err.status < 500)
      return page(res, err.status, renderError('Cannot do that', err.message));
    if ((err as { type?: string })?.type === 'entity.too.large')
      return page(res, 413, renderError('Too large', 'The form is too large.'));
    logger.error('approval page failed', { err: (err as Error)?.stack ?? String(err) });
    page(res, 500, renderError('Something went wrong', 'Try again in a moment.'));
  };
  app.use(onError);
  return app;
}
