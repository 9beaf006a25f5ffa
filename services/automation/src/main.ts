import { Rpc, systemPrincipal, type Principal, type Profile } from '@postbus/contracts';
import { OutboxRelay } from '@postbus/bus';
import { databaseOf, PeriodicLoop, runMain, type Database } from '@postbus/kit';
import { bootService, listen, type ServiceRuntime } from '@postbus/service';
import { ActivityRepository } from './activity/activity.repository';
import { readConfig, type AutomationConfig } from './config';
import { consumeComments } from './entry-points/consumers';
import { registerRpc } from './entry-points/rpc';
import { webhookApp } from './entry-points/webhook-http';
import { migrations } from './migrations';
import { PollCursorRepository } from './polling/poll-cursor.repository';
import { pollComments, POLLED_PLATFORMS, type PollPorts } from './polling/poll-comments.use-case';
import type { AnswerPorts } from './replies/answer.ports';
import { platformReplySender } from './replies/reply-senders';
import { TemplateRepository } from './templates/template.repository';
import { CommentInboxRepository } from './webhooks/comment-inbox.repository';
import { receiveComments } from './webhooks/receive-comments.use-case';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'automation', config, schema: 'automation', migrations });
  try {
    return await wire(svc, config);
  } catch (err) {
    await svc.lifecycle.stop();
    throw err;
  }
}

async function wire(svc: ServiceRuntime, config: AutomationConfig) {
  const ds = svc.ds!;
  const db = databaseOf(ds);
  const rpc = svc.bus.rpc;
  const templates = new TemplateRepository(ds);
  const activity = new ActivityRepository(ds);
  const clock = () => new Date();
  const relay = new OutboxRelay(ds, svc.bus.events, svc.logger.child({ module: 'outbox' }));

  registerRpc(svc.rpc, {
    db,
    templates,
    activity,
    clock,
    listProfiles: async (principal: Principal) =>
      (await rpc.call(Rpc.connectionsListProfiles, { includeInactive: true }, principal)).profiles,
  });

  const answer: AnswerPorts = {
    db,
    activity,
    templates,
    clock,
    findProfiles: async (platform, platformUserId) =>
      (await rpc.call(Rpc.connectionsFindByPlatformUser, { platform, platformUserId })).profiles,
    credentials: (profile: Profile, { refresh }) =>
      rpc.call(refresh ? Rpc.connectionsRefreshCredentials : Rpc.connectionsGetCredentials, {
        profileId: profile.id,
        accountId: profile.accountId,
      }),
    sendReply: platformReplySender({
      instagramApiUrl: config.INSTAGRAM_API_URL,
      facebookApiUrl: config.FACEBOOK_API_URL,
      threadsApiUrl: config.THREADS_API_URL,
      mastodonInstanceUrl: config.MASTODON_INSTANCE_URL,
      timeoutMs: config.PLATFORM_REQUEST_TIMEOUT_MS,
      pollIntervalMs: config.PLATFORM_POLL_INTERVAL_MS,
      blueskyServiceUrl: config.BLUESKY_SERVICE_URL,
    }),
    logger: svc.logger.child({ module: 'replies' }),
  };
  const comments = consumeComments(svc.bus, answer, {
    retryDelaysMs: config.AUTOMATION_RETRY_DELAYS_MS,
    concurrency: config.AUTOMATION_CONCURRENCY,
  });
  // Stopped in reverse: the listener first, then the replies in flight, then what the relay still holds.
  svc.lifecycle.onStop('relay', () => relay.stop());
  svc.lifecycle.onStop('comments', () => comments.stop());

  const inbox = new CommentInboxRepository();
  const app = webhookApp(
    {
      verifyToken: config.META_VERIFY_TOKEN,
      appSecrets: [config.META_APP_SECRET, config.THREADS_APP_SECRET].filter(Boolean),
      bodyLimit: config.AUTOMATION_WEBHOOK_BODY_LIMIT,
      clock,
      receive: (list) => receiveComments({ db, inbox, announced: () => relay.kick() }, list),
    },
    svc.logger.child({ module: 'webhooks' }),
  );
  const poller = commentPoller(svc, config, { db, templates, inbox, kick: () => relay.kick() });
  svc.lifecycle.onStop('comment polling', () => poller.stop());
  const http = await listen(app, svc.lifecycle, {
    port: config.AUTOMATION_HTTP_PORT,
    host: config.HOST,
    name: 'comment webhooks',
  });

  await svc.rpc.start();
  await comments.start();
  relay.start();
  poller.start();
  svc.metrics.trackOutbox(relay);
  svc.logger.info('automation started', { webhooks: `${http.url}/webhooks/meta` });
  return { ...svc, httpUrl: http.url };
}

/** Reads the comments of platforms that send no webhooks (Mastodon, Bluesky) every AUTOMATION_POLL_MS. */
function commentPoller(
  svc: ServiceRuntime,
  config: AutomationConfig,
  deps: { db: Database; templates: TemplateRepository; inbox: CommentInboxRepository; kick(): void },
) {
  const logger = svc.logger.child({ module: 'polling' });
  const ports: PollPorts = {
    ...deps,
    cursors: new PollCursorRepository(svc.ds!),
    listProfiles: async (accountId) =>
      (
        await svc.bus.rpc.call(
          Rpc.connectionsListProfiles,
          { platforms: [...POLLED_PLATFORMS] },
          systemPrincipal({ service: 'automation', accountId, scopes: ['account:read'] }),
        )
      ).profiles,
    credentials: (profile) =>
      svc.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId: profile.id, accountId: profile.accountId }),
    refreshCredentials: (profile) =>
      svc.bus.rpc.call(Rpc.connectionsRefreshCredentials, { profileId: profile.id, accountId: profile.accountId }),
    mastodonInstanceUrl: config.MASTODON_INSTANCE_URL,
    blueskyServiceUrl: config.BLUESKY_SERVICE_URL,
    timeoutMs: config.PLATFORM_REQUEST_TIMEOUT_MS,
    announced: () => deps.kick(),
    clock: () => new Date(),
    logger,
  };
  return new PeriodicLoop(() => pollComments(ports), {
    everyMs: config.AUTOMATION_POLL_MS,
    immediately: true,
    onError: (err) => logger.warn('comment polling failed', { error: err.message }),
  });
}

if (require.main === module) runMain(start);
