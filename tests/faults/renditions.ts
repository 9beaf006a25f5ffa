import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { Platform } from '@postbus/contracts';
import { testServers } from '@postbus/testing';
import type { CreatedPost } from './create-posts';
import type { PostExtras } from './post-extras';
import type { PlannedPost } from './post-plan';

const run = promisify(execFile);

/** What a platform's normalized posts are made from, and the preset their rendition gets. */
export interface RenditionSource {
  platform: Platform;
  file: string;
  /** The preset a rendition of it for this platform gets. */
  preset: string;
  /** Set once uploaded. */
  mediaId?: string;
}

export interface RenditionSources {
  dir: string;
  byPlatform: Map<Platform, RenditionSource>;
  remove(): Promise<void>;
}

/**
 * Two small videos a platform refuses as they are, made by ffmpeg from its test pattern:
 * 320×180 (16:9) with a tone, 4 s, for Facebook reels (9:16 only); 1100×100 (11:1), 12 s, for
 * Instagram reels (between 4:5 and 1.91:1). The Instagram one takes ffmpeg a second or two to
 * convert: long enough for the transcoder to be killed while it runs.
 */
export async function makeRenditionSources(): Promise<RenditionSources> {
  const dir = await mkdtemp(join(tmpdir(), 'postbus-faults-sources-'));
  const ffmpeg = (args: string[]) => run(testServers.ffmpegPath, ['-v', 'error', '-nostdin', '-y', ...args]);
  const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];
  const facebook: RenditionSource = { platform: 'facebook', file: join(dir, 'landscape.mp4'), preset: 'facebook.reel' };
  const instagram: RenditionSource = { platform: 'instagram', file: join(dir, 'wide.mp4'), preset: 'instagram.reel' };
  try {
    await Promise.all([
      ffmpeg([
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x180:rate=30',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000',
        '-t',
        '4',
        ...h264,
        '-c:a',
        'aac',
        '-shortest',
        facebook.file,
      ]),
      ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=1100x100:rate=30', '-t', '12', ...h264, instagram.file]),
    ]);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    dir,
    byPlatform: new Map([facebook, instagram].map((s) => [s.platform, s])),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Uploads a source through the REST API (media probes it), with the key of the account whose posts use it. */
export async function uploadSource(baseUrl: string, apiKey: string, source: RenditionSource): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(source.file)], { type: 'video/mp4' }), source.file.split('/').pop());
  const res = await fetch(`${baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
    body: form,
  });
  const body = (await res.json()) as { mediaId: string };
  if (res.status !== 201) throw new Error(`uploading ${source.file} failed: ${res.status} ${JSON.stringify(body)}`);
  source.mediaId = body.mediaId;
  return body.mediaId;
}

/** Child processes of `pid` named `name` (from /proc): the ffmpeg a transcoder runs. */
export function childrenNamed(pid: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && comm === name) found.push(Number(entry));
    } catch {
      // the process ended while being read
    }
  }
  return found;
}

interface SandboxItem {
  platform: string;
  id: string;
  text: string;
  mediaUrls: string[];
  bytes?: number;
}

export interface RenditionOutcome {
  /** Posts with normalize whose media needed a rendition. */
  posts: number;
  posted: number;
  failed: number;
  /** Renditions stored for the run's sources, and for how many sources. */
  renditions: number;
  sources: number;
  /** Posts that fell due before their rendition was made, and so waited for it. */
  dueBeforeReady: number;
  /** Published items that carried the rendition (its URL, or as many bytes as it has). */
  carriedRendition: number;
  /** Renditions that failed, by platform and reason (their posts fail with the reason). */
  failedRenditions: Map<string, number>;
  /** Sources with other than one rendition for their preset, or a rendition stored twice. */
  notDeduplicated: number;
  /** Posted without the rendition on the platform, or a post not pointing at its rendition. */
  wrongMedia: number;
  /** Posts still waiting for a rendition at the end. */
  stillWaiting: number;
  problems: Map<string, { count: number; examples: string[] }>;
}

/**
 * The normalized posts against their sources' renditions: one ready rendition per source and
 * preset, each post's media the rendition's URL and no longer waiting, and the platform's item
 * carrying the rendition — Instagram its URL, Facebook (the reel's bytes are uploaded) as many
 * bytes as the rendition has, not the source.
 */
export async function verifyRenditions(
  databaseUrl: string,
  sandboxUrl: string,
  planned: PlannedPost[],
  created: CreatedPost[],
  extras: PostExtras,
  sources: RenditionSources,
): Promise<RenditionOutcome> {
  const o: RenditionOutcome = {
    posts: extras.normalized.size,
    posted: 0,
    failed: 0,
    renditions: 0,
    sources: 0,
    failedRenditions: new Map(),
    dueBeforeReady: 0,
    carriedRendition: 0,
    notDeduplicated: 0,
    wrongMedia: 0,
    stillWaiting: 0,
    problems: new Map(),
  };
  const note = (kind: string, example: string) => {
    const entry = o.problems.get(kind) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < 3) entry.examples.push(example);
    o.problems.set(kind, entry);
  };
  const items = (await (await fetch(`${sandboxUrl}/__sandbox/published`)).json()) as SandboxItem[];
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    /** The rendition of each platform's source: its id and size. */
    const made = new Map<Platform, { id: string; sizeBytes: number; sourceBytes: number; madeAt: Date }>();
    const used = new Set([...extras.normalized].map((i) => planned[i].platform));
    for (const source of sources.byPlatform.values()) {
      if (!source.mediaId || !used.has(source.platform)) continue;
      o.sources++;
      const { rows } = await db.query(
        `SELECT r.id, r.status, r.preset, r.failed_reason, m.size_bytes::int AS size_bytes, m.created_at AS made_at, s.size_bytes::int AS source_bytes,
                (SELECT count(*)::int FROM media.media x WHERE x.id = r.id) AS media_rows
           FROM media.renditions r JOIN media.media s ON s.id = r.source_media_id LEFT JOIN media.media m ON m.id = r.id AND m.status = 'ready'
          WHERE r.source_media_id = $1 AND r.status <> 'discarded'`,
        [source.mediaId],
      );
      o.renditions += rows.length;
      // A reel without a cover of its own also gets a cover frame (`<preset>+cover<ms>`): one per offset, apart from the video.
      const isCover = (r: { preset: string }) => r.preset.startsWith(`${source.preset}+cover`);
      const videos = rows.filter((r) => !isCover(r));
      const covers = rows.filter(isCover);
      const coverPresets = new Set(covers.map((r) => r.preset));
      if (
        videos.length !== 1 ||
        videos[0].preset !== source.preset ||
        videos[0].media_rows > 1 ||
        coverPresets.size !== covers.length ||
        covers.some((r) => r.media_rows > 1)
      ) {
        o.notDeduplicated++;
        note(
          'source without exactly one rendition for its preset',
          `${source.platform} ${source.mediaId}: ${JSON.stringify(rows)}`,
        );
      }
      for (const r of rows.filter((x) => x.status === 'failed'))
        o.failedRenditions.set(
          `${source.platform}: ${r.failed_reason}`,
          (o.failedRenditions.get(`${source.platform}: ${r.failed_reason}`) ?? 0) + 1,
        );
      const ready = videos.find((r) => r.status === 'ready' && r.size_bytes !== null);
      if (ready)
        made.set(source.platform, {
          id: ready.id,
          sizeBytes: ready.size_bytes,
          sourceBytes: ready.source_bytes,
          madeAt: ready.made_at,
        });
    }
    const ids = [...extras.normalized].map((i) => created[i].id);
    const { rows: posts } = await db.query(
      `SELECT id, status, media_urls, awaiting_media_id, scheduled_time FROM posts.posts WHERE id = ANY($1)`,
      [ids],
    );
    const byId = new Map(posts.map((p: { id: string }) => [p.id, p]));
    for (const i of extras.normalized) {
      const { platform, token } = planned[i];
      const post = byId.get(created[i].id) as
        | { id: string; status: string; media_urls: string[]; awaiting_media_id: string | null; scheduled_time: Date }
        | undefined;
      const rendition = made.get(platform);
      if (!post) continue; // counted as never stored by the outcome check
      if (rendition && post.scheduled_time < rendition.madeAt) o.dueBeforeReady++;
      if (post.status === 'posted') o.posted++;
      else if (post.status === 'failed') o.failed++;
      if (post.awaiting_media_id && post.status !== 'failed') {
        o.stillWaiting++;
        note('post still waiting for its rendition', `${post.id} (${post.status}) waits for ${post.awaiting_media_id}`);
      }
      if (post.status !== 'posted') continue;
      if (!rendition || !post.media_urls[0]?.includes(rendition.id)) {
        o.wrongMedia++;
        note(
          "posted without its rendition's URL",
          `${post.id}: ${post.media_urls[0]} (rendition ${rendition?.id ?? 'none'})`,
        );
        continue;
      }
      const live = items.filter((item) => item.platform === platform && item.text.includes(token));
      // Facebook reels are uploaded as bytes (rupload); Instagram takes a link.
      const carried = (item: SandboxItem) =>
        platform === 'facebook'
          ? item.bytes === rendition.sizeBytes && item.bytes !== rendition.sourceBytes
          : item.mediaUrls.some((u) => u.includes(rendition.id));
      if (live.length && live.every(carried)) o.carriedRendition++;
      else {
        o.wrongMedia++;
        note(
          'on the platform without the rendition',
          `${post.id} (${platform}): ${JSON.stringify(live.map((x) => ({ mediaUrls: x.mediaUrls, bytes: x.bytes })))}, rendition ${rendition.id} of ${rendition.sizeBytes} bytes, source ${rendition.sourceBytes}`,
        );
      }
    }
  } finally {
    await db.end();
  }
  return o;
}
