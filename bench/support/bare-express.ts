/**
 * The yardstick of GET /api/v1/posts/{id}: a bare Express handler answering the same JSON from
 * memory, in a process of its own like the gateway, with the gateway's own copy of Express.
 * BARE_PORT and BARE_BODY (the JSON) come from bench/api.bench.ts.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

const express = createRequire(join(__dirname, '..', '..', 'services', 'gateway', 'package.json'))(
  'express',
) as typeof import('express');
const body = JSON.parse(process.env.BARE_BODY ?? '{}');
const app = express();
app.disable('x-powered-by');
app.get('/api/v1/posts/:id', (_req, res) => {
  res.json(body);
});
app.listen(Number(process.env.BARE_PORT ?? 0), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
