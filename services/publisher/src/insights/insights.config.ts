import { fillSandboxUrls, int, loadConfig, sandboxDefault, type VarSpec } from '@postbus/kit';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "1h,24h,7d" → [3600000, 86400000, 604800000]: increasing durations with a unit (ms, s, m, h, d). */
export function parseOffsets(raw: string): number[] {
  const offsets = raw.split(',').map((part) => {
    const m = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!m) throw new Error(`'${part.trim()}' is not a duration such as 90s, 1h or 7d`);
    return Number(m[1]) * UNIT_MS[m[2]];
  });
  if (offsets.some((ms, i) => ms <= 0 || (i > 0 && ms <= offsets[i - 1])))
    throw new Error('expected increasing durations above zero');
  return offsets;
}

function offsets(doc: string, def: string): VarSpec<number[]> {
  return { doc, default: parseOffsets(def), parse: parseOffsets };
}

/** The engagement collector's own variables (read from the env the publisher was started with). */
export const insightsVars = {
  INSIGHTS_OFFSETS: offsets(
    'When engagement figures are collected after a post is published: comma-separated durations (ms, s, m, h, d)',
    '1h,24h,7d',
  ),
  INSIGHTS_INTERVAL_MS: int('How often the engagement collector looks for posts due a collection (ms)', 60_000, 10),
  INSIGHTS_BATCH: int('Most posts the engagement collector reads per run', 50, 1),
  YOUTUBE_API_URL: sandboxDefault(
    'YouTube Data API base URL for video statistics; real: https://www.googleapis.com/youtube/v3',
  ),
  BLUESKY_APPVIEW_URL: sandboxDefault(
    "Bluesky AppView that posts' like, reply, repost and quote counts are read from (app.bsky.feed.getPosts, no session); real: https://public.api.bsky.app",
  ),
};

export function readInsightsConfig(env: Record<string, string | undefined> = process.env, sandboxUrl: string) {
  const config = { ...loadConfig(insightsVars, env), SANDBOX_URL: sandboxUrl };
  fillSandboxUrls(config, { YOUTUBE_API_URL: '/youtube/v3', BLUESKY_APPVIEW_URL: '/bluesky' });
  return config;
}
export type InsightsConfig = ReturnType<typeof readInsightsConfig>;
