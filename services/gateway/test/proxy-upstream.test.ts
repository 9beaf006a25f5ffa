import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Bus, RpcClient } from '@postbus/bus';
import { createLogger } from '@postbus/kit';
import { PrincipalCache } from '@postbus/service';
import { createApp } from '../src/entry-points/http/app';

/**
 * The streamed paths (pages, OAuth, uploads, files, the agent endpoint) against a stand-in for
 * the service behind them: a silent service is given up with 504 upstream_timeout, while an
 * upload or a download that keeps moving for longer than that is never cut. Under an https
 * {base_url} every answer carries HSTS.
 */

const TIMEOUT_MS = 800;
/** Well past TIMEOUT_MS in total, in steps well under it. */
const STEPS = 12;
const STEP_MS = 150;

let upstream: Server;
let upstreamUrl: string;
const gateways: Server[] = [];

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/silent': () => undefined, // never answers
  '/quick': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('quick'),
  '/upload': (req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes })));
  },
  '/download': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const timer = setInterval(() => {
      res.write('x'.repeat(10));
      if (++sent === STEPS) {
        clearInterval(timer);
        res.end();
      }
    }, STEP_MS);
  },
  '/stalls': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('the start, then silence');
  },
};

beforeAll(async () => {
  upstream = createServer((req, res) =>
    routes[new URL(req.url!, 'http://x').pathname.replace(/^\/stream/, '')]?.(req, res),
  );
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  for (const g of gateways) {
    g.closeAllConnections();
    await new Promise((resolve) => g.close(resolve));
  }
});

async function gateway(publicBaseUrl = 'http://localhost'): Promise<string> {
  const app = createApp({
    bus: {} as Bus,
    rpc: {} as RpcClient,
    cache: new PrincipalCache(0),
    logger: createLogger('gateway-test', 'silent'),
    bodyLimit: '1mb',
    publicBaseUrl: () => publicBaseUrl,
    proxies: [{ prefix: '/stream', target: upstreamUrl }],
    upstreamTimeoutMs: TIMEOUT_MS,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  gateways.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Sends `chunks` pieces of body, one every STEP_MS, and answers the reply. */
function slowUpload(url: string, chunks: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    let sent = 0;
    const timer = setInterval(() => {
      req.write(Buffer.alloc(1024));
      if (++sent === chunks) {
        clearInterval(timer);
        req.end();
      }
    }, STEP_MS);
  });
}

describe('a streamed path whose service is slow', () => {
  test('when the service never answers, then 504 upstream_timeout as { error, code }', async () => {
    const base = await gateway();

    const res = await fetch(`${base}/stream/silent`, { signal: AbortSignal.timeout(20_000) });

    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ error: expect.stringContaining('did not answer'), code: 'upstream_timeout' });
  });

  test('when an upload keeps sending for longer than the timeout, then it reaches the service whole and its answer comes back', async () => {
    const base = await gateway();

    const res = await slowUpload(`${base}/stream/upload`, STEPS);

    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ bytes: STEPS * 1024 });
  });

  test('when a download keeps flowing for longer than the timeout, then it arrives whole', async () => {
    const base = await gateway();

    const res = await fetch(`${base}/stream/download`, { signal: AbortSignal.timeout(20_000) });

    expect(res.status).toBe(200);
    expect(await res.text()).toBe('x'.repeat(10 * STEPS));
  });

  test('when the service falls silent in the middle of its answer, then the connection is cut instead of hanging', async () => {
    const base = await gateway();

    const res = await fetch(`${base}/stream/stalls`, { signal: AbortSignal.timeout(20_000) });

    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(/terminated|other side closed/);
  });
});

describe('Strict-Transport-Security', () => {
  test('when {base_url} is https, then pages and every other answer carry HSTS for a year with subdomains', async () => {
    const base = await gateway('https://postbus.example');

    const page = await fetch(`${base}/stream/quick`);
    const missing = await fetch(`${base}/api/v1/nothing-here`);

    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(missing.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  test('when {base_url} is http (development), then no HSTS is sent', async () => {
    const base = await gateway('http://localhost:3000');

    const page = await fetch(`${base}/stream/quick`);

    expect(page.headers.get('strict-transport-security')).toBeNull();
  });
});
