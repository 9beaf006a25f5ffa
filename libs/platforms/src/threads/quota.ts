import { callThreads, type ThreadsApiOptions } from './api';

export interface ThreadsPublishingQuota {
  usage: number;
  total: number;
  durationS: number;
}

/**
 * `GET /{threads-user-id}/threads_publishing_limit?fields=quota_usage,config`
 * (developers.facebook.com/docs/threads/overview#rate-limiting): posts published in the rolling
 * window and the limit, read rather than assumed.
 */
export async function getThreadsPublishingQuota(
  api: ThreadsApiOptions & { userId: string },
): Promise<ThreadsPublishingQuota | null> {
  const body = await callThreads(api, 'GET', [api.userId, 'threads_publishing_limit'], {
    query: { fields: 'quota_usage,config' },
  });
  const entry = Array.isArray(body.data) ? (body.data[0] as Record<string, unknown> | undefined) : undefined;
  const config = entry?.config as Record<string, unknown> | undefined;
  const usage = Number(entry?.quota_usage);
  const total = Number(config?.quota_total);
  if (!Number.isFinite(usage) || !Number.isFinite(total)) return null;
  return { usage, total, durationS: Number(config?.quota_duration) || 86_400 };
}
