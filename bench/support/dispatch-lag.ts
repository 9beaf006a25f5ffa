import { Events, newId, type PostDue } from '@postbus/contracts';
import type { Bus } from '@postbus/bus';
import type { openDataSource } from '@postbus/kit';
import { PostRepository, type NewPost } from '../../services/posts/src/posts/post.repository';

type DataSource = Awaited<ReturnType<typeof openDataSource>>;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
export const lagSummary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), max: s[s.length - 1] };
};
export const formatLag = (v: Record<string, number>) =>
  Object.entries(v)
    .map(([k, n]) => `${k} ${Math.round(n)} ms`)
    .join('  ');

/** Time before its due time a post is written, as a client creates it. */
export const LEAD_MS = 1000;

/**
 * Feeds RATE posts a second, due evenly from 2 s ahead for SECONDS seconds, to a running posts
 * service (written in slices of 100 ms, each about LEAD_MS before it is due), and hears their
 * post.due on a queue of its own: how long after its scheduledTime each was dispatched
 * (dispatchedAt − scheduledTime) and received.
 */
export async function measureDispatchLag(
  ds: DataSource,
  bus: Bus,
  opts: { rate: number; seconds: number; queue?: string },
): Promise<{ dispatchLag: number[]; receiveLag: number[]; late: number }> {
  const total = opts.rate * opts.seconds;
  const dispatchLag: number[] = [];
  const receiveLag: number[] = [];
  let done!: () => void;
  const allReceived = new Promise<void>((resolve) => (done = resolve));
  const seen = new Set<string>();
  const consumer = bus.consume({
    queue: opts.queue ?? 'bench.due',
    events: [Events.postDue.name],
    prefetch: 500,
    retryDelaysMs: [],
    async handler(event) {
      const d = event.data as PostDue;
      if (seen.has(d.postId)) return;
      seen.add(d.postId);
      const due = Date.parse(d.scheduledTime);
      dispatchLag.push(Date.parse(d.dispatchedAt) - due);
      receiveLag.push(Date.now() - due);
      if (seen.size === total) done();
    },
  });
  await consumer.start();

  const first = Date.now() + 2000;
  const repo = new PostRepository(ds);
  const rows: NewPost[] = Array.from({ length: total }, (_, i) => ({
    id: newId('pst'),
    account_id: 'acc_bench',
    request_id: 'crq_bench',
    profile_id: 'prf_bench',
    platform: 'threads',
    status: 'scheduled',
    caption: `bench post ${i}`,
    title: null,
    media_urls: [],
    media_id: null,
    platform_meta: null,
    external_id: null,
    category: null,
    scheduled_time: new Date(first + Math.floor((i * 1000) / opts.rate)),
  }));
  const slices = new Map<number, NewPost[]>();
  for (const r of rows) {
    const slice = Math.floor((r.scheduled_time!.getTime() - first) / 100);
    let batch = slices.get(slice);
    if (!batch) slices.set(slice, (batch = []));
    batch.push(r);
  }
  let late = 0;
  const feeding = (async () => {
    for (const [slice, batch] of [...slices].sort(([a], [b]) => a - b)) {
      const insertAt = first + slice * 100 - LEAD_MS;
      const wait = insertAt - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      else if (wait < -LEAD_MS / 2) late++;
      await ds.transaction((m) => repo.insertMany(m, batch));
    }
  })();

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(
        () => reject(new Error(`only ${seen.size} of ${total} post.due arrived`)),
        (opts.seconds + 30) * 1000,
      )),
  );
  try {
    await Promise.race([Promise.all([allReceived, feeding]), timeout]);
  } finally {
    clearTimeout(timer);
    await consumer.stop();
  }
  return { dispatchLag, receiveLag, late };
}
