import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookSender } from '../src/sending/send-webhook';

let server: Server;
let port: number;
let hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/ok') res.writeHead(204).end();
    else if (req.url === '/moved') res.writeHead(301, { location: '/ok' }).end();
    else if (req.url === '/slow')
      return; // never answers
    else res.writeHead(500).end('broken');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
beforeEach(() => {
  hits = [];
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const req = (path: string) => ({
  url: `http://127.0.0.1:${port}${path}`,
  headers: { 'webhook-id': 'msg_x' },
  body: '{}',
});

describe('sending one delivery', () => {
  test('when the endpoint answers 2xx, then the attempt succeeds with its code', async () => {
    const send = webhookSender({ allowLoopback: true, timeoutMs: 2000 });
    expect(await send(req('/ok'))).toEqual({ responseCode: 204, error: null });
  });

  test('when the endpoint answers non-2xx, then the attempt fails with its code', async () => {
    const send = webhookSender({ allowLoopback: true, timeoutMs: 2000 });
    expect(await send(req('/broken'))).toEqual({ responseCode: 500, error: 'HTTP 500' });
  });

  test('when the endpoint redirects, then the redirect is not followed and the attempt fails', async () => {
    const send = webhookSender({ allowLoopback: true, timeoutMs: 2000 });
    const result = await send(req('/moved'));
    expect(result.responseCode).toBe(301);
    expect(result.error).toContain('redirects are not followed');
    expect(hits).toEqual(['/moved']);
  });

  test('when the endpoint does not answer within the timeout, then the attempt fails as timed out', async () => {
    const send = webhookSender({ allowLoopback: true, timeoutMs: 150 });
    const result = await send(req('/slow'));
    expect(result.responseCode).toBeNull();
    expect(result.error).toMatch(/^timed out/);
  });

  test('when the target is loopback and loopback is not allowed, then nothing is sent and the attempt fails', async () => {
    const send = webhookSender({ allowLoopback: false, timeoutMs: 2000 });
    const result = await send(req('/ok'));
    expect(result).toEqual({ responseCode: null, error: expect.stringContaining('loopback') });
    expect(hits).toEqual([]);
  });

  test('when the target name now resolves to a private or metadata address, then it is refused at delivery', async () => {
    const send = webhookSender({
      allowLoopback: true,
      timeoutMs: 2000,
      resolve: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    const result = await send({ url: 'http://hooks.example/in', headers: {}, body: '{}' });
    expect(result.error).toContain('cloud metadata');
  });
});
