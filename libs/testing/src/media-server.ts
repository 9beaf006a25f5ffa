import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny media host for tests: `/<name>.<ext>?size=<bytes>` serves deterministic bytes of that
 * size (byte i is i % 251), with HEAD and Range support; `/files/<id>?type=video/mp4&size=` serves
 * without an extension, as stored media is. `status=` answers that status to everything,
 * `getStatus=` only to GET (HEAD still tells the size). `head=<hex>` puts those bytes first (a
 * file's signature, e.g. `ffd8ff` for a JPEG, for hosts that read what a file is from its bytes).
 */
export interface MediaServer {
  url: string;
  /** e.g. media.link('clip.mp4', 300_000) */
  link(name: string, size: number, extra?: Record<string, string>): string;
  /** Requests seen, as `METHOD path range?`. */
  requests: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** `head=` values for a media link whose bytes must read as an image: a JPEG's and a PNG's signatures. */
export const IMAGE_HEADS = { jpeg: 'ffd8ffe0', png: '89504e470d0a1a0a' } as const;

export function mediaByte(i: number): number {
  return i % 251;
}

export async function startMediaServer(): Promise<MediaServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const range = req.headers.range;
    requests.push(`${req.method} ${url.pathname}${range ? ` ${range}` : ''}`);
    const size = Number(url.searchParams.get('size') ?? 1000);
    const head = Buffer.from(url.searchParams.get('head') ?? '', 'hex');
    const ext = /\.(\w+)$/.exec(url.pathname)?.[1]?.toLowerCase();
    const type = url.searchParams.get('type') ?? (ext && TYPES[ext]) ?? 'application/octet-stream';
    if (url.searchParams.get('status')) {
      res.writeHead(Number(url.searchParams.get('status'))).end();
      return;
    }
    // HEAD answers from what is known of the file; the bytes themselves are gone (a stored object lost)
    if (req.method === 'GET' && url.searchParams.get('getStatus')) {
      res.writeHead(Number(url.searchParams.get('getStatus'))).end();
      return;
    }
    let start = 0;
    let end = size - 1;
    const match = range && /^bytes=(\d+)-(\d*)$/.exec(range);
    if (match) {
      start = Number(match[1]);
      end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
      res.writeHead(206, {
        'content-type': type,
        'content-length': end - start + 1,
        'content-range': `bytes ${start}-${end}/${size}`,
        'accept-ranges': 'bytes',
      });
    } else {
      res.writeHead(200, { 'content-type': type, 'content-length': size, 'accept-ranges': 'bytes' });
    }
    if (req.method === 'HEAD') return void res.end();
    const piece = 64 * 1024;
    let at = start;
    const pump = () => {
      while (at <= end) {
        const n = Math.min(piece, end - at + 1);
        const buf = Buffer.alloc(n);
        for (let i = 0; i < n; i++) buf[i] = at + i < head.length ? head[at + i] : mediaByte(at + i);
        at += n;
        if (!res.write(buf)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    requests,
    link: (name, size, extra = {}) =>
      `${url}/${name}?${new URLSearchParams({ size: String(size), ...extra }).toString()}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
