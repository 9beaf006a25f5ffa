import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MediaHost {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { mp4: 'video/mp4', jpg: 'image/jpeg' };

/**
 * Public-looking media links the platforms' publishing reads: `/<name>.mp4` and `/<name>.jpg`
 * serve `size` deterministic bytes with HEAD and Range, as object storage would.
 */
export async function startMediaHost(size = 96 * 1024): Promise<MediaHost> {
  const bytes = Buffer.alloc(size, 7);
  const server = createServer((req, res) => {
    const ext = /\.(\w+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname)?.[1] ?? '';
    const type = TYPES[ext] ?? 'application/octet-stream';
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range?.[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    const headers = {
      'content-type': type,
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      ...(range && { 'content-range': `bytes ${start}-${end}/${size}` }),
    };
    res.writeHead(range ? 206 : 200, headers);
    res.end(req.method === 'HEAD' ? undefined : bytes.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
