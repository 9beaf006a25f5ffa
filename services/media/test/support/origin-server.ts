import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A web server on loopback standing in for the sites links point at; counts the hits per path. */
export interface OriginServer {
  url: string;
  hits: Map<string, number>;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startOrigin(): Promise<OriginServer> {
  const routes = new Map<string, Handler>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (!handler) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves bytes as a file, with Content-Length. */
export const file =
  (bytes: Buffer, type = 'application/octet-stream'): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': bytes.length });
    res.end(bytes);
  };

/** Streams `total` bytes after `head` in 64 KB chunks, without Content-Length, honouring back-pressure. */
export const stream =
  (head: Buffer, total: number): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const piece = sent === 0 ? head : chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (sent = total));
    pump();
  };

export const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) =>
    void res.writeHead(status, { location }).end();
