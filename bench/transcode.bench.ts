/**
 * The transcoder's cost: a 1080p 16:9 source of just under 50 MB (made here by ffmpeg) is uploaded
 * to media and normalized for a Facebook reel (padded to 1080×1920) by the transcoder, with
 * auth, media and the transcoder run as their own processes. Measured:
 *
 *   speed         seconds of source normalized per CPU second of the transcoder process and its
 *                 ffmpeg (/proc/<pid>/stat: utime + stime + cutime + cstime), beside the same
 *                 ffmpeg command (the same render plan, threads and preset) run by hand on the
 *                 same file (bash `times`); overhead = how much more CPU the service spent (≤ 10 %)
 *   memory        the resident set growth of media and of the transcoder (ffmpeg is a process
 *                 of its own) from idle to peak during the normalize (≤ 50 MB each)
 *
 *   npx tsx bench/transcode.bench.ts     (needs PostgreSQL and RabbitMQ, like the tests; BENCH_SOURCE_SECONDS to vary)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { openBus, type Bus } from '@postbus/bus';
import { healthRpc, MEDIA_MAX_BYTES, Rpc, type MediaAsset, type Principal } from '@postbus/contracts';
import { createLogger, probeFigures, runFfprobe } from '@postbus/kit';
import { parseRenditionPreset } from '../libs/platforms/src/media/rendition-presets';
import { createTestEnv, freePort, seedAccount, testServers, waitFor } from '@postbus/testing';
import { renderPlan } from '../services/transcoder/src/transcode/render-plan';
import { recordFigures } from './support/figures';
import { SERVICE_LOADER, SERVICE_NODE_OPTIONS } from '../scripts/service-node-options';

const run = promisify(execFile);
const root = join(__dirname, '..');
const FFMPEG = testServers.ffmpegPath;
const FFPROBE = FFMPEG.replace(/ffmpeg$/, 'ffprobe');
const SOURCE_SECONDS = Number(process.env.BENCH_SOURCE_SECONDS ?? 20);
const THREADS = 2;
const X264_PRESET = 'veryfast';
const MAX_VIDEO_BITRATE = 8_000_000;
const TARGET_OVERHEAD = 0.1;
const TARGET_GROWTH_MB = 50;
const CLOCK_TICKS = 100;

/** CPU seconds of a process alone (utime + stime) and of the children it has waited for (cutime + cstime). */
function cpuSeconds(pid: number): { own: number; children: number } {
  // after "pid (comm) " the fields count from state (3): utime is 14, stime 15, cutime 16, cstime 17
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ')
    .map(Number);
  return { own: (fields[11] + fields[12]) / CLOCK_TICKS, children: (fields[13] + fields[14]) / CLOCK_TICKS };
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

let stopping = false;
function startService(name: string, env: Record<string, string>): ChildProcess {
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

/** A 1080p 16:9 H.264 + AAC source of just under media's 50 MB limit. */
async function makeSource(dir: string): Promise<string> {
  const file = join(dir, 'source-1080p.mp4');
  await run(FFMPEG, [
    '-v',
    'error',
    '-nostdin',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1920x1080:rate=30`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    String(SOURCE_SECONDS),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    '18M',
    '-maxrate',
    '18M',
    '-bufsize',
    '36M',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-fs',
    String(MEDIA_MAX_BYTES - 1024 * 1024),
    '-movflags',
    '+faststart',
    file,
  ]);
  return file;
}

function uploadMultipart(
  mediaUrl: string,
  key: string,
  file: string,
  size: number,
): Promise<{ status: number; body: string }> {
  const boundary = '----postbusbench';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="source.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Readable.from(
    (async function* () {
      yield head;
      for await (const part of createReadStream(file)) yield part as Buffer;
      yield tail;
    })(),
  );
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/api/v1/media', mediaUrl),
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

/** The same ffmpeg command the transcoder runs, by hand: CPU seconds of the children, from bash's `times`. */
async function byHand(source: string, args: string[], output: string): Promise<number> {
  const quoted = ['-nostdin', '-hide_banner', '-v', 'error', '-y', '-i', source, ...args, output]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const { stdout } = await run('bash', ['-c', `'${FFMPEG}' ${quoted} >/dev/null && times`], { maxBuffer: 1024 * 1024 });
  const children = stdout
    .trim()
    .split('\n')
    .at(-1)!
    .match(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/)!;
  return Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4]);
}

/** Asks media for the source's Facebook reel rendition and waits until the transcoder made it. */
async function normalize(bus: Bus, principal: Principal, mediaId: string): Promise<MediaAsset> {
  const asked = await bus.rpc.call(
    Rpc.mediaRequestRendition,
    { mediaId, preset: 'facebook.reel', contentType: 'video/mp4' },
    principal,
  );
  let failure: string | undefined;
  const made = await waitFor(
    async () => {
      const asset = await bus.rpc.call(Rpc.mediaGet, { mediaId: asked.mediaId }, principal);
      if (asset.status === 'failed') failure = asset.failedReason ?? 'no reason';
      return asset.status === 'processing' ? undefined : asset;
    },
    { timeoutMs: 900_000, intervalMs: 200, what: 'the rendition' },
  );
  if (failure) throw new Error(`rendition failed: ${failure}`);
  return made;
}

async function main(): Promise<void> {
  const testEnv = await createTestEnv('bench_transcode');
  const dir = await mkdtemp(join(tmpdir(), 'postbus-transcode-bench-'));
  const port = await freePort();
  const mediaUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...testEnv.env,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    MEDIA_HTTP_PORT: String(port),
    MEDIA_LOCAL_DIR: join(dir, 'store'),
    PUBLIC_BASE_URL: mediaUrl,
  };
  const children: ChildProcess[] = [];
  const bus = await openBus({
    url: testEnv.amqpUrl,
    namespace: testEnv.namespace,
    logger: createLogger('bench', 'silent'),
    rpcTimeoutMs: 120_000,
    ephemeral: true,
  });
  try {
    const source = await makeSource(dir);
    const { size } = await stat(source);
    const probe = probeFigures(
      await runFfprobe(FFPROBE, source, { timeoutMs: 30_000, maxOutputBytes: 1024 * 1024 }),
      'video/mp4',
    )!;
    console.log(
      `source: ${probe.width}×${probe.height}, ${probe.durationSec} s, ${(size / 1024 / 1024).toFixed(1)} MB`,
    );

    children.push(startService('auth', { ...env, AUTH_HTTP_PORT: '0' }));
    const media = startService('media', env);
    const transcoder = startService('transcoder', {
      ...env,
      MEDIA_HTTP_URL: mediaUrl,
      TRANSCODER_THREADS: String(THREADS),
      TRANSCODER_X264_PRESET: X264_PRESET,
      TRANSCODER_MAX_VIDEO_BITRATE: String(MAX_VIDEO_BITRATE),
    });
    children.push(media, transcoder);
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
    const principal: Principal = {
      accountId: account.accountId,
      userId: account.userId,
      credential: { type: 'api_key', id: account.keyId },
      scopes: ['media:write'],
      profileIds: 'all',
    };
    await waitFor(
      async () =>
        (await bus.rpc.call(healthRpc('transcoder'), {}, null, { timeoutMs: 1000 }).catch(() => undefined))
          ? true
          : undefined,
      { timeoutMs: 60_000, intervalMs: 300, what: 'the transcoder to answer' },
    );

    // Warm-up: one small normalize loads and compiles every code path before the baseline is taken.
    const warm = join(dir, 'warm.mp4');
    await run(FFMPEG, [
      '-v',
      'error',
      '-nostdin',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=30',
      '-f',
      'lavfi',
      '-i',
      'sine=sample_rate=48000',
      '-t',
      '3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-shortest',
      warm,
    ]);
    const warmUp = await uploadMultipart(mediaUrl, account.apiKey, warm, (await stat(warm)).size);
    if (warmUp.status !== 201) throw new Error(`warm-up upload answered ${warmUp.status}: ${warmUp.body}`);
    await normalize(bus, principal, (JSON.parse(warmUp.body) as { mediaId: string }).mediaId);

    const up = await uploadMultipart(mediaUrl, account.apiKey, source, size);
    if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${up.body}`);
    const sourceId = (JSON.parse(up.body) as { mediaId: string }).mediaId;
    await new Promise((r) => setTimeout(r, 1000));

    const base = { media: rssMb(media.pid!), transcoder: rssMb(transcoder.pid!) };
    const peak = { ...base };
    const sampler = setInterval(() => {
      peak.media = Math.max(peak.media, rssMb(media.pid!));
      peak.transcoder = Math.max(peak.transcoder, rssMb(transcoder.pid!));
    }, 20);
    const cpuBefore = cpuSeconds(transcoder.pid!);
    const started = Date.now();
    const made = await normalize(bus, principal, sourceId);
    const wallSeconds = (Date.now() - started) / 1000;
    const cpuAfter = cpuSeconds(transcoder.pid!);
    const ownCpu = cpuAfter.own - cpuBefore.own;
    const serviceCpu = ownCpu + cpuAfter.children - cpuBefore.children;
    clearInterval(sampler);

    const plan = renderPlan(probe, parseRenditionPreset('facebook.reel')!, {
      threads: THREADS,
      x264Preset: X264_PRESET,
      maxVideoBitRate: MAX_VIDEO_BITRATE,
    });
    const handCpu = await byHand(source, plan.args, join(dir, 'by-hand.mp4'));
    const seconds = probe.durationSec!;
    const overhead = serviceCpu / handCpu - 1;
    const growth = { media: peak.media - base.media, transcoder: peak.transcoder - base.transcoder };
    console.log(
      `rendition: ${made.probe?.width}×${made.probe?.height}, ${(made.sizeBytes / 1024 / 1024).toFixed(1)} MB, in ${wallSeconds.toFixed(1)} s wall`,
    );
    console.log(
      `transcoder: ${(seconds / serviceCpu).toFixed(3)} s of 1080p source per CPU second (${serviceCpu.toFixed(1)} CPU s)`,
    );
    console.log(
      `by hand:    ${(seconds / handCpu).toFixed(3)} s of 1080p source per CPU second (${handCpu.toFixed(1)} CPU s)`,
    );
    console.log(
      `overhead: ${(overhead * 100).toFixed(1)} % (target ≤ ${TARGET_OVERHEAD * 100} %); the transcoder's Node process itself: ${ownCpu.toFixed(2)} CPU s (${((ownCpu / handCpu) * 100).toFixed(1)} % of ffmpeg's), the rest is ffmpeg's run-to-run spread`,
    );
    console.log(
      `RSS growth: media ${growth.media.toFixed(1)} MB (${base.media.toFixed(0)} → ${peak.media.toFixed(0)}), transcoder ${growth.transcoder.toFixed(1)} MB (${base.transcoder.toFixed(0)} → ${peak.transcoder.toFixed(0)}) (target ≤ ${TARGET_GROWTH_MB} MB)`,
    );
    const section = `Normalize a ${(size / 1024 / 1024).toFixed(0)} MB 1080p source for a Facebook reel`;
    recordFigures([
      { section, name: 'transcoder: source seconds per CPU second', value: Number((seconds / serviceCpu).toFixed(3)) },
      { section, name: 'ffmpeg by hand: source seconds per CPU second', value: Number((seconds / handCpu).toFixed(3)) },
      { section, name: 'transcoder process itself (copying, RPC)', value: Number(ownCpu.toFixed(2)), unit: 'CPU s' },
      {
        section,
        name: 'CPU overhead of the service',
        value: Number((overhead * 100).toFixed(1)),
        unit: '%',
        target: `≤ ${TARGET_OVERHEAD * 100} %`,
        met: overhead <= TARGET_OVERHEAD,
      },
      {
        section,
        name: 'media RSS growth',
        value: Number(growth.media.toFixed(1)),
        unit: 'MB',
        target: `≤ ${TARGET_GROWTH_MB} MB`,
        met: growth.media <= TARGET_GROWTH_MB,
      },
      {
        section,
        name: 'transcoder RSS growth',
        value: Number(growth.transcoder.toFixed(1)),
        unit: 'MB',
        target: `≤ ${TARGET_GROWTH_MB} MB`,
        met: growth.transcoder <= TARGET_GROWTH_MB,
      },
    ]);
    process.exitCode =
      overhead <= TARGET_OVERHEAD && growth.media <= TARGET_GROWTH_MB && growth.transcoder <= TARGET_GROWTH_MB ? 0 : 1;
  } finally {
    stopping = true;
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve())),
    );
    await bus.close();
    await testEnv.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
