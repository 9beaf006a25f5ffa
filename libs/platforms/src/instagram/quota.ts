import { callInstagram, type InstagramApiOptions } from './api';

export interface InstagramPublishingQuota {
  usage: number;
  total: number;
  durationS: number;
}

/**
 * `GET /{ig-user-id}/content_publishing_limit?fields=quota_usage,config`: how many posts the
 * account published through the API in the rolling window, and the limit (read, never hard-coded).
 */
export async function getInstagramPublishingQuota(
  api: InstagramApiOptions & { userId: string },
): Promise<InstagramPublishingQuota | null> {
  const body = await callInstagram(api, 'GET', [api.userId, 'content_publishing_limit'], {
    query: { fields: 'quota_usage,config' },
  });
  const entry = Array.isArray(body.data) ? (body.data[0] as Record<string, unknown> | undefined) : undefined;
  const config = entry?.config as Record<string, unknown> | undefined;
  const usage = Number(entry?.quota_usage);
  const total = Number(config?.quota_total);
  if (!Number.isFinite(usage) || !Number.isFinite(total)) return null;
  // quota_duration: the rolling window in seconds (24 h today); an absurd value falls back to that
  const duration = Number(config?.quota_duration);
  return {
    usage,
    total,
    durationS: Number.isInteger(duration) && duration > 0 && duration <= 30 * 86_400 ? duration : 86_400,
  };
}
