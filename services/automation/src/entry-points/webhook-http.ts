import express, { type ErrorRequestHandler, type Express } from 'express';
import { AppError, type CommentReceived } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { parseMetaComments } from '../webhooks/comment-payloads';
import { isSignedByAny, isVerifyTokenValid } from '../webhooks/meta-signature';

export interface WebhookHttpPorts {
  verifyToken: string;
  /** The App Secrets a delivery may be signed with (Meta app, Threads app). */
  appSecrets: string[];
  bodyLimit: string;
  clock: () => Date;
  receive(comments: CommentReceived[]): Promise<{ comments: number; new: number }>;
}

const CHALLENGE = /^[\w-]{1,128}$/;

/**
 * `{base_url}/webhooks/meta`, streamed here by the gateway. GET is Meta's subscription handshake:
 * `hub.mode=subscribe` and the configured verify token echo `hub.challenge`, anything else is 403.
 * POST carries comment events: the raw body must bear an App Secret's `X-Hub-Signature-256`,
 * otherwise 403 and nothing is stored; the comments are stored and answered later.
 */
export function webhookApp(ports: WebhookHttpPorts, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');

  app.get('/webhooks/meta', (req, res) => {
    const mode = req.query['hub.mode'];
    const challenge = req.query['hub.challenge'];
    if (mode !== 'subscribe' || !isVerifyTokenValid(req.query['hub.verify_token'], ports.verifyToken)) {
      throw new AppError(
        'invalid_signature',
        'The subscription handshake needs hub.mode=subscribe and the configured verify token.',
      );
    }
    if (typeof challenge !== 'string' || !CHALLENGE.test(challenge))
      throw new AppError('validation_error', 'hub.challenge is missing or malformed.');
    res.status(200).type('text/plain').set('X-Content-Type-Options', 'nosniff').send(challenge);
  });

  app.post('/webhooks/meta', express.raw({ type: () => true, limit: ports.bodyLimit }), async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!isSignedByAny(raw, req.get('x-hub-signature-256'), ports.appSecrets)) {
      throw new AppError(
        'invalid_signature',
        'X-Hub-Signature-256 is missing or does not match the body signed with the App Secret.',
      );
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError('invalid_json', 'The webhook body is not valid JSON.');
    }
    res.status(200).json(await ports.receive(parseMetaComments(payload, ports.clock())));
  });

  app.use((req) => {
    throw new AppError('not_found', `No route ${req.method} ${req.path}.`);
  });
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    let error: AppError;
    if (err instanceof AppError) error = err;
    else if ((err as { type?: string })?.type === 'entity.too.large')
      error = new AppError('validation_error', `The webhook body is larger than ${ports.bodyLimit}.`);
    else {
      logger.error('comment webhook failed', { err: (err as Error)?.stack ?? String(err) });
      error = new AppError('internal_error', 'Internal error.');
    }
    if (res.headersSent) return;
    res.status(error.status).json(error.toBody());
  };
  app.use(onError);
  return app;
}
