import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aJpeg } from '@postbus/testing';

/** A web server on loopback that counts every request: a link import that reaches it shows up here. */
export interface LinkOrigin {
  port: number;
  url: string;
  hits(): number;
  /** `GET /to?target=<url>` answers 302 to the target. */
  redirectTo(target: string): string;
  close(): Promise<void>;
}

// a real file: every stored file is read by ffprobe
const JPEG = aJpeg(2062);

/** A file the origin serves at its path, with the Content-Type it claims. */
export interface ServedFile {
  type: string;
  body: Buffer;
}

/** Serves `files` by path, and a small JPEG at any other path. */
export async function startLinkOrigin(files: Record<string, ServedFile> = {}): Promise<LinkOrigin> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    const url = new URL(req.url ?? '/', 'http://origin');
    const target = url.searchParams.get('target');
    if (url.pathname === '/to' && target) return void res.writeHead(302, { location: target }).end();
    const file = Object.hasOwn(files, url.pathname) ? files[url.pathname] : undefined;
    if (file)
      return void res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': JPEG.length }).end(JPEG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    port,
    url,
    hits: () => hits,
    redirectTo: (target) => `${url}/to?target=${encodeURIComponent(target)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
