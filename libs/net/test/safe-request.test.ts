import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NetError, openSafeRequest, pinTarget, safeRequest, type Resolver } from '../src';

let server: Server;
let port: number;
const seen: { path: string; method: string; host: string; body: string }[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

/** What the test server answers each path. */
function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  seen.push({ path: req.url ?? '', method: req.method ?? '', host: req.headers.host ?? '', body });
  switch (req.url) {
    case '/ok':
      res.end(`hello ${req.method} ${body}`);
      return;
    case '/to-private':
      res.writeHead(302, { location: 'http://10.0.0.1/inside' }).end();
      return;
    case '/to-ok':
      res.writeHead(302, { location: '/ok' }).end();
      return;
    case '/see-other':
      res.writeHead(303, { location: '/ok' }).end();
      return;
    case '/loop':
      res.writeHead(307, { location: '/loop' }).end();
      return;
    case '/slow':
      return; // never answers
    case '/big':
      res.end(Buffer.alloc(100_000, 'x'));
      return;
    case '/trickle': {
      // the headers at once, then a piece every 150 ms, 8 pieces in all
      res.writeHead(200);
      let sent = 0;
      const timer = setInterval(() => (++sent === 8 ? (clearInterval(timer), res.end('x')) : res.write('x')), 150);
      res.on('close', () => clearInterval(timer));
      return;
    }
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer((req, res) => void readBody(req).then((body) => answer(req, res, body)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const base = () => `http://127.0.0.1:${port}`;
const loopback = { allowLoopback: true, timeoutMs: 2000 };
const strict = { allowLoopback: false, timeoutMs: 2000 };

async function failure(work: Promise<unknown>): Promise<NetError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NetError);
  return err as NetError;
}

describe('refusing targets inside the network', () => {
  test.each([
    ['http://127.0.0.1:1/', 'loopback'],
    ['http://[::1]:1/', 'loopback'],
    ['http://10.0.0.1/', 'private'],
    ['http://192.168.0.10/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://[fd00:ec2::254]/', 'cloud metadata'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://2130706433/', 'loopback'],
  ])('when the target is %s, then it is refused as %s before any connection', async (url, why) => {
    const before = seen.length;
    const err = await failure(safeRequest(url, { ...strict, maxResponseBytes: 100 }));
    expect(err.kind).toBe('refused_address');
    expect(err.message).toContain(`a ${why} address`);
    expect(seen.length).toBe(before);
  });

  test('when the host is localhost and loopback is not allowed, then it is refused', async () => {
    const err = await failure(safeRequest(`http://localhost:${port}/ok`, { ...strict, maxResponseBytes: 100 }));
    expect(err.kind).toBe('refused_address');
  });

  test('when a host name resolves to a private or a metadata address, then it is refused', async () => {
    const resolve: Resolver = async (host) => [
      { address: host === 'internal.example' ? '10.0.0.5' : '169.254.169.254', family: 4 },
    ];
    expect(
      (await failure(safeRequest('http://internal.example/', { ...loopback, resolve, maxResponseBytes: 100 }))).kind,
    ).toBe('refused_address');
    expect(
      (await failure(safeRequest('http://metadata.example/', { ...loopback, resolve, maxResponseBytes: 100 }))).message,
    ).toContain('cloud metadata');
  });

  test('when the host does not resolve, then the request fails as unresolvable', async () => {
    const resolve: Resolver = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(
      (await failure(safeRequest('http://nowhere.example/', { ...strict, resolve, maxResponseBytes: 100 }))).kind,
    ).toBe('unresolvable');
  });

  test('when the URL is not http(s) or carries credentials, then it is refused as invalid', async () => {
    expect((await failure(safeRequest('ftp://example.com/file', { ...strict, maxResponseBytes: 100 }))).kind).toBe(
      'invalid_url',
    );
    expect((await failure(safeRequest('file:///etc/passwd', { ...strict, maxResponseBytes: 100 }))).kind).toBe(
      'invalid_url',
    );
    expect(
      (await failure(safeRequest(`http://user:secret@127.0.0.1:${port}/ok`, { ...loopback, maxResponseBytes: 100 })))
        .kind,
    ).toBe('invalid_url');
    expect((await failure(pinTarget('not a url', strict))).kind).toBe('invalid_url');
  });
});

describe('connecting to the judged address', () => {
  test('when loopback is allowed, then a local target answers', async () => {
    const res = await safeRequest(`${base()}/ok`, { ...loopback, method: 'POST', body: 'ping', maxResponseBytes: 100 });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello POST ping');
    expect(res.address).toBe('127.0.0.1');
  });

  test('when a name resolves to a refused and an allowed address, then the connection goes to the allowed one, resolved once', async () => {
    let calls = 0;
    // A rebinding resolver: the second answer would point inside; it must never be asked again.
    const resolve: Resolver = async () =>
      calls++ === 0
        ? [
            { address: '10.0.0.5', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ]
        : [{ address: '10.9.9.9', family: 4 }];
    const res = await safeRequest(`http://hooks.example:${port}/ok`, { ...loopback, resolve, maxResponseBytes: 100 });
    expect(res.status).toBe(200);
    expect(res.address).toBe('127.0.0.1');
    expect(calls).toBe(1);
    expect(seen.at(-1)?.host).toBe(`hooks.example:${port}`);
  });
});

describe('URLs the caller vouches for', () => {
  const ownFiles = (u: URL) => u.pathname.startsWith('/files/');

  test('when a trusted URL resolves inside the network, then it is connected to; any other URL there is still refused', async () => {
    const res = await safeRequest(`${base()}/files/x`, { ...strict, trustedUrl: ownFiles, maxResponseBytes: 100 });
    expect(res.status).toBe(404);
    expect(res.address).toBe('127.0.0.1');
    expect(
      (await failure(safeRequest(`${base()}/ok`, { ...strict, trustedUrl: ownFiles, maxResponseBytes: 100 }))).kind,
    ).toBe('refused_address');
  });

  test('when a trusted URL redirects, then the next hop is judged like any other', async () => {
    const trustedUrl = (u: URL) => u.pathname === '/to-ok';
    const before = seen.length;
    const err = await failure(
      safeRequest(`${base()}/to-ok`, { ...strict, trustedUrl, maxRedirects: 1, maxResponseBytes: 100 }),
    );
    expect(err.kind).toBe('refused_address');
    expect(seen.slice(before).map((r) => r.path)).toEqual(['/to-ok']);
  });
});

describe('redirects', () => {
  test('when redirects are not allowed, then a 3xx is answered as it is and not followed', async () => {
    const before = seen.length;
    const res = await safeRequest(`${base()}/to-ok`, { ...loopback, maxResponseBytes: 100 });
    expect(res.status).toBe(302);
    expect(seen.length).toBe(before + 1);
  });

  test('when a redirect points inside the network, then it is judged again and refused', async () => {
    const err = await failure(
      safeRequest(`${base()}/to-private`, { ...loopback, maxRedirects: 3, maxResponseBytes: 100 }),
    );
    expect(err.kind).toBe('refused_address');
    expect(err.message).toContain('private');
  });

  test('when a redirect stays public, then it is followed and every hop is checked', async () => {
    const checked: string[] = [];
    const res = await safeRequest(`${base()}/to-ok`, {
      ...loopback,
      maxRedirects: 1,
      maxResponseBytes: 100,
      checkUrl: (u) => void checked.push(u.pathname),
    });
    expect(res.status).toBe(200);
    expect(res.chain.map((u) => u.pathname)).toEqual(['/to-ok', '/ok']);
    expect(checked).toEqual(['/to-ok', '/ok']);
  });

  test('when a POST meets 303, then the next hop is a GET without the body', async () => {
    const res = await safeRequest(`${base()}/see-other`, {
      ...loopback,
      method: 'POST',
      body: 'payload',
      headers: { 'content-type': 'text/plain' },
      maxRedirects: 1,
      maxResponseBytes: 100,
    });
    expect(res.body.toString()).toBe('hello GET ');
  });

  test('when redirects loop past the limit, then the request fails with too_many_redirects', async () => {
    const err = await failure(safeRequest(`${base()}/loop`, { ...loopback, maxRedirects: 2, maxResponseBytes: 100 }));
    expect(err.kind).toBe('too_many_redirects');
  });
});

describe('time and size caps', () => {
  test('when the server does not answer in time, then the request fails with timeout', async () => {
    const err = await failure(
      safeRequest(`${base()}/slow`, { allowLoopback: true, timeoutMs: 150, maxResponseBytes: 100 }),
    );
    expect(err.kind).toBe('timeout');
  });

  test('when the body is larger than allowed, then it fails, or is cut when truncation is asked', async () => {
    expect((await failure(safeRequest(`${base()}/big`, { ...loopback, maxResponseBytes: 1000 }))).kind).toBe(
      'too_large',
    );
    const cut = await safeRequest(`${base()}/big`, { ...loopback, maxResponseBytes: 1000, oversize: 'truncate' });
    expect(cut.status).toBe(200);
    expect(cut.body.length).toBe(1000);
    expect(cut.truncated).toBe(true);
  });

  test('when the deadline is for the answer only, then a body read longer than it still arrives whole', async () => {
    const res = await openSafeRequest(`${base()}/trickle`, {
      allowLoopback: true,
      timeoutMs: 500,
      idleTimeoutMs: 0,
      timeoutCoversBody: false,
    });
    let text = '';
    for await (const c of res.body) text += c.toString();
    expect(text).toBe('x'.repeat(8));
  });

  test('when the deadline covers the body (the default), then a body read longer than it fails with timeout', async () => {
    const res = await openSafeRequest(`${base()}/trickle`, { allowLoopback: true, timeoutMs: 500, idleTimeoutMs: 0 });
    const read = async () => {
      for await (const _ of res.body) void _;
    };
    expect((await failure(read())).kind).toBe('timeout');
  });

  test('when the body is streamed, then it can be read as it comes', async () => {
    const res = await openSafeRequest(`${base()}/ok`, loopback);
    let text = '';
    for await (const c of res.body) text += c.toString();
    expect(text).toBe('hello GET ');
  });
});
