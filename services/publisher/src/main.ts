import { OutboxRelay } from '@postbus/bus';
import { runMain } from '@postbus/kit';
import { ownFileLinks } from '@postbus/platforms';
import { bootService } from '@postbus/service';
import { AttemptRepository } from './attempts/attempt.repository';
import { readConfig, type PublisherConfig } from './config';
import { CredentialsPort } from './credentials/credentials.port';
import { CachedCredentials } from './credentials/credentials.cache';
import { DUE_QUEUE, consumeDuePosts, consumeRevocations } from './entry-points/consumers';
import { coalescedKick } from './outbox/coalesced-kick';
import { startInsights } from './insights/start-insights';
import { readInsightsConfig } from './insights/insights.config';
import { FreshMediaUrls } from './media/fresh-media-url';
import { migrations } from './migrations';
import { meterAdapters } from './publishing/metered-adapters';
import type { AdapterConfig } from './publishing/adapters/adapter-config';
import { createAdapters } from './publishing/platform-adapters';
import { RateLimiter } from './rate-limits/rate-limiter';
import { FollowUpScheduler } from './scheduling/follow-up.scheduler';
import { ThrottleRepository } from './throttling/throttle.repository';
import { WorkerRegistry } from './workers/worker-registry';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'publisher', config, schema: 'publisher', migrations });
  const ds = svc.ds!;
  const logger = svc.logger;
  const relay = new OutboxRelay(ds, svc.bus.events, logger.child({ module: 'outbox' }));
  const worker = new WorkerRegistry(ds, config.PUBLISHER_WORKER_HEARTBEAT_MS, logger.child({ module: 'worker' }));
  const followUps = await FollowUpScheduler.create(svc.bus.connection, DUE_QUEUE);
  const adapters = createAdapters(adapterConfigOf(config, env), logger);
  const credentials = new CachedCredentials(new CredentialsPort(svc.bus.rpc), config.PUBLISHER_CREDENTIALS_CACHE_MS);
  const revocations = consumeRevocations(svc.bus, credentials);
  const consumer = consumeDuePosts(
    svc.bus,
    {
      attempts: new AttemptRepository(ds),
      credentials,
      media: new FreshMediaUrls(svc.bus.rpc),
      adapters: meterAdapters(adapters, svc.metrics),
      rateLimiter: new RateLimiter(ds, config.PUBLISHER_RATE_LIMITS),
      throttles: new ThrottleRepository(ds),
      followUps,
      worker,
      policy: {
        maxAttempts: config.PUBLISHER_MAX_ATTEMPTS,
        backoff: { baseMs: config.PUBLISHER_BACKOFF_BASE_MS, maxMs: config.PUBLISHER_BACKOFF_MAX_MS },
        pollIntervalMs: config.PLATFORM_POLL_INTERVAL_MS,
        pollMaxIntervalMs: config.PLATFORM_POLL_MAX_INTERVAL_MS,
        processingTimeoutMs: config.PUBLISHER_PROCESSING_TIMEOUT_MS,
        followUpGraceMs: Math.max(60_000, worker.staleMs),
        throttle: {
          minMs: config.PUBLISHER_THROTTLE_MIN_DEFER_MS,
          maxMs: config.PUBLISHER_THROTTLE_MAX_DEFER_MS,
          giveUpMs: config.PUBLISHER_THROTTLE_GIVE_UP_MS,
        },
      },
      logger: logger.child({ module: 'publish' }),
      announced: coalescedKick(() => relay.kick(), config.PUBLISHER_ANNOUNCE_BATCH_MS),
      deferred: (platform, cause) => svc.metrics.publishDeferred(platform, cause),
    },
    { concurrency: config.PUBLISHER_CONCURRENCY, retryDelaysMs: config.PUBLISHER_RETRY_DELAYS_MS },
  );
  await worker.start();
  startInsights(svc, config, env);
  await svc.rpc.start();
  relay.start();
  svc.metrics.trackOutbox(relay);
  await revocations.start();
  await consumer.start();
  svc.lifecycle.onStop('worker', () => worker.stop());
  svc.lifecycle.onStop('relay', () => relay.stop());
  svc.lifecycle.onStop('consumer', () => consumer.stop());
  svc.lifecycle.onStop('revocations', () => revocations.stop());
  logger.info('publisher started', { concurrency: config.PUBLISHER_CONCURRENCY, worker: worker.id });
  return svc;
}

/** Where and how the adapters reach each platform, from the publisher's config. */
function adapterConfigOf(config: PublisherConfig, env: Record<string, string | undefined> | undefined): AdapterConfig {
  return {
    threadsApiUrl: config.THREADS_API_URL,
    instagramApiUrl: config.INSTAGRAM_API_URL,
    facebookApiUrl: config.FACEBOOK_API_URL,
    tiktokApiUrl: config.TIKTOK_API_URL,
    youtubeUploadUrl: config.YOUTUBE_UPLOAD_URL,
    requestTimeoutMs: config.PLATFORM_REQUEST_TIMEOUT_MS,
    uploadTimeoutMs: config.PLATFORM_UPLOAD_TIMEOUT_MS,
    tiktokChunkBytes: config.TIKTOK_CHUNK_BYTES,
    tiktokPullPrefixes: config.TIKTOK_PULL_URL_PREFIXES,
    youtubeChunkBytes: config.YOUTUBE_CHUNK_BYTES,
    youtubeDefaultPrivacy: config.YOUTUBE_DEFAULT_PRIVACY,
    youtubeApiUrl: readInsightsConfig(env, config.SANDBOX_URL).YOUTUBE_API_URL,
    youtubeProjectAudited: config.YOUTUBE_PROJECT_AUDITED,
    youtubePrivateLock: config.YOUTUBE_PRIVATE_LOCK,
    tiktokPostIdWaitMs: config.TIKTOK_POST_ID_WAIT_MS,
    blueskyServiceUrl: config.BLUESKY_SERVICE_URL,
    mastodonInstanceUrl: config.MASTODON_INSTANCE_URL,
    linkedinApiUrl: config.LINKEDIN_API_URL,
    linkedinApiVersion: config.LINKEDIN_API_VERSION,
    pinterestApiUrl: config.PINTEREST_API_URL,
    xApiUrl: config.X_API_URL,
    mediaAccess: {
      allowLoopback: config.PUBLISHER_ALLOW_LOOPBACK_MEDIA,
      trusted: ownFileLinks([config.PUBLIC_BASE_URL, config.MEDIA_HTTP_URL]),
    },
  };
}

if (require.main === module) runMain(start);
