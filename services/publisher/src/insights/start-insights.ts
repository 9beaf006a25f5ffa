import { Rpc } from '@postbus/contracts';
import type { ServiceRuntime } from '@postbus/service';
import type { PublisherConfig } from '../config';
import { EngagementCollector } from './engagement-collector.job';
import { createEngagementReaders } from './engagement-readers';
import { registerEngagementRpc } from './engagement-rpc';
import { EngagementRepository } from './engagement.repository';
import { readInsightsConfig } from './insights.config';

/** Engagement figures: the periodic collector and the RPC that answers them. Call before the RPC server starts. */
export function startInsights(
  svc: ServiceRuntime,
  config: PublisherConfig,
  env?: Record<string, string | undefined>,
): void {
  const insights = readInsightsConfig(env ?? undefined, config.SANDBOX_URL);
  const engagement = new EngagementRepository(svc.ds!);
  registerEngagementRpc(svc.rpc, engagement);
  const readers = createEngagementReaders({
    threadsApiUrl: config.THREADS_API_URL,
    instagramApiUrl: config.INSTAGRAM_API_URL,
    facebookApiUrl: config.FACEBOOK_API_URL,
    tiktokApiUrl: config.TIKTOK_API_URL,
    youtubeApiUrl: insights.YOUTUBE_API_URL,
    pinterestApiUrl: config.PINTEREST_API_URL,
    blueskyAppViewUrl: insights.BLUESKY_APPVIEW_URL,
    mastodonInstanceUrl: config.MASTODON_INSTANCE_URL,
    timeoutMs: config.PLATFORM_REQUEST_TIMEOUT_MS,
  });
  const logger = svc.logger.child({ module: 'insights' });
  const collector = new EngagementCollector(
    {
      engagement,
      readers,
      logger,
      credentials: (profileId, accountId) => svc.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId }),
    },
    logger,
    { offsetsMs: insights.INSIGHTS_OFFSETS, intervalMs: insights.INSIGHTS_INTERVAL_MS, batch: insights.INSIGHTS_BATCH },
  );
  collector.start();
  svc.lifecycle.onStop('engagement collector', () => collector.stop());
}
