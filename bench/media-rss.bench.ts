/**
 * Media's memory under load: starts auth and media as their own processes, then runs a 50 MB
 * multipart upload and a 50 MB link import at the same time while sampling media's resident set
 * (/proc/<pid>/status). Prints the peak growth over the idle, warmed-up process; target < 30 MB.
 *
 *   npx tsx bench/media-rss.bench.ts        (needs PostgreSQL and RabbitMQ, like the tests)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { openBus } from '@postbus/bus';
import { MEDIA_MAX_BYTES, Rpc } from '@postbus/contracts';
import { createLogger } from '@postbus/kit';
import { createTestEnv, freePort, seedAccount, waitFor } from '@postbus/testing';
import { recordFigures } from './support/figures';
import { SERVICE_LOADER, SERVICE_NODE_OPTIONS } from '../scripts/service-node-options';

const TARGET_MB = 30;
const MB = 1024 * 1024;
const root = join(__dirname, '..');
const MP4_HEAD = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');

/** `size` bytes of an MP4-looking file, produced 64 KB at a time (never whole in memory here either). */
function mp4Stream(size: number): Readable {
  let sent = 0;
  const chunk = randomBytes(64 * 1024);
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const piece = sent === 0 ? Buffer.concat([MP4_HEAD, chunk.subarray(MP4_HEAD.length)]) : chunk;
      const out = piece.subarray(0, Math.min(piece.length, size - sent));
      sent += out.length;
      this.push(out);
    },
  });
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0);
}

function startService(name: string, env: Record<string, string>): ChildProcess {
  // With the heap sizing npm start gives every service.
  const child = spawn(process.execPath, [...SERVICE_LOADER, join(root, 'services', name, 'src', 'main.ts')], {
    cwd: root,
    env: { NODE_OPTIONS: SERVICE_NODE_OPTIONS, ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`${name} exited (${signal ?? code})`);
  });
  return child;
}

function uploadMultipart(mediaUrl: string, key: string, size: number): Promise<{ status: number; body: string }> {
  const boundary = `----postbus${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Readable.from(
    (async function* () {
      yield head;
      for await (const part of mp4Stream(size)) yield part as Buffer;
      yield tail;
    })(),
  );
  const url = new URL('/api/v1/media', mediaUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    body.pipe(req);
  });
}

let stopping = false;

async function main(): Promise<void> {
  const testEnv = await createTestEnv('bench_media');
  const dir = await mkdtemp(join(tmpdir(), 'postbus-media-bench-'));
  const port = await freePort();
  const mediaUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...testEnv.env,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    MEDIA_HTTP_PORT: String(port),
    MEDIA_LOCAL_DIR: dir,
    MEDIA_ALLOW_LOOPBACK_IMPORTS: 'true',
    PUBLIC_BASE_URL: mediaUrl,
  };
  const children: ChildProcess[] = [];
  const origin: Server = createServer((req, res) => {
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size'));
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': size });
    mp4Stream(size).pipe(res);
  });
  const bus = await openBus({
    url: testEnv.amqpUrl,
    namespace: testEnv.namespace,
    logger: createLogger('bench', 'silent'),
    rpcTimeoutMs: 120_000,
    ephemeral: true,
  });
  try {
    children.push(startService('auth', { ...env, AUTH_HTTP_PORT: '0' }));
    const media = startService('media', env);
    children.push(media);
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    await waitFor(
      async () => ((await fetch(`${mediaUrl}/files/med_x`).catch(() => undefined))?.status === 403 ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 200, what: 'media to listen' },
    );
    const account = await waitFor(
      () =>
        seedAccount(bus.rpc, 'http://127.0.0.1:9', {
          email: `bench-${Date.now()}@example.com`,
          platforms: [],
          plan: 'pro',
        }),
      { timeoutMs: 120_000, intervalMs: 500, what: 'auth to answer' },
    );
    const principal = {
      accountId: account.accountId,
      userId: account.userId,
      credential: { type: 'api_key' as const, id: account.keyId },
      scopes: ['media:write'],
      profileIds: 'all' as const,
    };

    // Warm-up: every code path loaded and compiled before the baseline is taken.
    for (let i = 0; i < 3; i++) {
      const up = await uploadMultipart(mediaUrl, account.apiKey, 2 * MB);
      if (up.status !== 201) throw new Error(`warm-up upload answered ${up.status}: ${up.body}`);
      await bus.rpc.call(Rpc.mediaImportFromUrl, { url: `${originUrl}/warm.mp4?size=${2 * MB + i}` }, principal);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const pid = media.pid!;
    const baselineKb = statusKb(pid, 'VmRSS');
    const hwmBeforeKb = statusKb(pid, 'VmHWM');
    let sampledPeakKb = baselineKb;
    const sampler = setInterval(() => (sampledPeakKb = Math.max(sampledPeakKb, statusKb(pid, 'VmRSS'))), 10);

    const started = Date.now();
    const [upload, imported] = await Promise.all([
      uploadMultipart(mediaUrl, account.apiKey, MEDIA_MAX_BYTES),
      bus.rpc.call(Rpc.mediaImportFromUrl, { url: `${originUrl}/big.mp4?size=${MEDIA_MAX_BYTES}` }, principal),
    ]);
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${upload.body}`);
    if (imported.sizeBytes !== MEDIA_MAX_BYTES) throw new Error(`import stored ${imported.sizeBytes} bytes`);

    const hwmAfterKb = statusKb(pid, 'VmHWM');
    const peakKb = Math.max(sampledPeakKb, hwmAfterKb > hwmBeforeKb ? hwmAfterKb : 0);
    const growthMb = (peakKb - baselineKb) / 1024;
    console.log(`media: 50 MB upload + 50 MB link import at once in ${seconds.toFixed(1)} s`);
    console.log(`media RSS: baseline ${(baselineKb / 1024).toFixed(1)} MB, peak ${(peakKb / 1024).toFixed(1)} MB`);
    console.log(
      `media peak RSS growth: ${growthMb.toFixed(1)} MB (target < ${TARGET_MB} MB) ${growthMb < TARGET_MB ? 'OK' : 'OVER TARGET'}`,
    );
    recordFigures([
      {
        section: 'Media under a 50 MB upload + a 50 MB link import',
        name: 'media RSS before → peak',
        value: `${(baselineKb / 1024).toFixed(0)} → ${(peakKb / 1024).toFixed(0)}`,
        unit: 'MB',
      },
      {
        section: 'Media under a 50 MB upload + a 50 MB link import',
        name: 'growth',
        value: Number(growthMb.toFixed(1)),
        unit: 'MB',
        target: `< ${TARGET_MB} MB`,
        met: growthMb < TARGET_MB,
      },
    ]);
    process.exitCode = growthMb < TARGET_MB ? 0 : 1;
  } finally {
    stopping = true;
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve())),
    );
    origin.closeAllConnections();
    origin.close();
    await bus.close();
    await testEnv.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
