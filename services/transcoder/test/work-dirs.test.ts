import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaProbe, RenditionWork } from '@postbus/contracts';
import { probeFigures, runFfprobe } from '@postbus/kit';
import { makeTestMedia, testServers, type TestMedia } from '@postbus/testing';
import { transcodeRendition } from '../src/transcode/transcode-rendition.use-case';
import type { TranscodePorts } from '../src/transcode/transcode-ports';
import { removeStaleWorkDirs } from '../src/transcode/work-dirs';

let files: TestMedia;
let server: Server;
let mediaUrl: string;
let probes: Record<'long' | 'png', MediaProbe>;
let root: string;

const ffprobe = async (file: string, type: string) =>
  probeFigures(
    await runFfprobe(testServers.ffmpegPath.replace(/ffmpeg$/, 'ffprobe'), file, {
      timeoutMs: 20_000,
      maxOutputBytes: 1024 * 1024,
    }),
    type,
  )!;

beforeAll(async () => {
  [files, root] = await Promise.all([makeTestMedia(), mkdtemp(join(tmpdir(), 'postbus-workdirs-'))]);
  probes = { long: await ffprobe(files.longMp4, 'video/mp4'), png: await ffprobe(files.png, 'image/png') };
  // Media's listener as the transcoder sees it: the sources at /long and /png, an upload path that refuses.
  server = createServer((req, res) => {
    const source = req.url === '/png' ? files.png : files.longMp4;
    if (req.method === 'GET') return void createReadStream(source).pipe(res.writeHead(200));
    req.resume().on('end', () => res.writeHead(503).end('storage unavailable'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mediaUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  await files?.remove();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Ports of one job: the 240 s test video for a Facebook reel cut to 90 s, or the PNG for an Instagram feed image. */
async function jobPorts(
  source: 'long' | 'png',
  timeoutMs: number,
): Promise<{ ports: TranscodePorts; failures: string[]; workDir: string }> {
  const workDir = await mkdtemp(join(root, 'work-'));
  const failures: string[] = [];
  const work: RenditionWork = {
    renditionId: 'med_r1',
    status: 'processing',
    preset: source === 'long' ? 'facebook.reel+trim' : 'instagram.feed_image',
    contentType: source === 'long' ? 'video/mp4' : 'image/jpeg',
    sourcePath: `/${source}`,
    uploadPath: '/renditions/med_r1/file',
    sourceProbe: probes[source],
  };
  const ports: TranscodePorts = {
    media: {
      start: async () => work,
      progress: async () => ({ status: 'processing' }),
      fail: async (_p, _id, reason) => {
        failures.push(reason);
        return { status: 'failed' };
      },
    },
    mediaHttpUrl: mediaUrl,
    ffmpegPath: testServers.ffmpegPath,
    heifConvertPath: '/usr/bin/heif-convert',
    encode: { threads: 1, x264Preset: 'veryfast', maxVideoBitRate: 1_000_000 },
    timeoutMs,
    workDir,
    progressEveryMs: 1000,
    logger: { debug: () => undefined } as never,
  };
  return { ports, failures, workDir };
}

describe("a job's work directory", () => {
  test('when ffmpeg is killed mid-way past the job ceiling, then the rendition fails and the job leaves no directory', async () => {
    const { ports, failures, workDir } = await jobPorts('long', 300);
    expect(await transcodeRendition(ports, { renditionId: 'med_r1', accountId: 'acc_1' })).toBe('failed');
    expect(failures).toEqual([expect.stringMatching(/^Making it took longer than/)]);
    expect(await readdir(workDir)).toEqual([]);
  });

  test('when the job crashes after ffmpeg (media refuses the result), then it throws for a retry and leaves no directory', async () => {
    const { ports, workDir } = await jobPorts('png', 60_000);
    await expect(transcodeRendition(ports, { renditionId: 'med_r1', accountId: 'acc_1' })).rejects.toThrow(
      /media refused the rendition: 503/,
    );
    expect(await readdir(workDir)).toEqual([]);
  });

  test('when a transcoder starts, then the job directories left by a killed one, older than any job runs, are removed; newer ones and other files stay', async () => {
    const workDir = await mkdtemp(join(root, 'work-'));
    const now = Date.now();
    const hoursAgo = (h: number) => new Date(now - h * 3600_000);
    for (const name of ['rendition-killed', 'rendition-running', 'someone-elses'])
      await mkdir(join(workDir, name, 'inside'), { recursive: true });
    await utimes(join(workDir, 'rendition-killed'), hoursAgo(3), hoursAgo(3));
    await utimes(join(workDir, 'someone-elses'), hoursAgo(3), hoursAgo(3));
    expect(await removeStaleWorkDirs(workDir, 2 * 3600_000, now)).toEqual(['rendition-killed']);
    expect((await readdir(workDir)).sort()).toEqual(['rendition-running', 'someone-elses']);
  });
});
