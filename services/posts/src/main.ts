import { Rpc } from '@postbus/contracts';
import { OutboxRelay } from '@postbus/bus';
import { databaseOf, PeriodicLoop, runMain } from '@postbus/kit';
import { forgetOldCalls } from './posts/create-request.repository';
import { bootService, listen, type ServiceRuntime } from '@postbus/service';
import { ApprovalRepository } from './approvals/approval.repository';
import { ApprovalSigner } from './approvals/approval-signer';
import type { ApprovalPorts } from './approvals/approvals.ports';
import { readConfig, type PostsConfig } from './config';
import { approvalPages } from './entry-points/approval-pages';
import { consumeProfileFacts, consumeResults } from './entry-points/consumers';
import { registerRpc } from './entry-points/rpc';
import { registerSummariesRpc } from './entry-points/summaries-rpc';
import { migrations } from './migrations';
import { namedProfiles } from './posts/named-profiles';
import { PostRepository } from './posts/post.repository';
import { ProfileFactRepository } from './posts/profile-fact.repository';
import { nextTick, Scheduler } from './scheduler/scheduler';
import { redispatchStalled } from './scheduler/claim-due-posts';
import { SeriesExtender } from './series/series-extender';
import { settleRenditionWaits } from './renditions/settle-rendition-waits';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'posts', config, schema: 'posts', migrations });
  try {
    return await wire(svc, config);
  } catch (err) {
    await svc.lifecycle.stop();
    throw err;
  }
}

async function wire(svc: ServiceRuntime, config: PostsConfig) {
  const ds = svc.ds!;
  const rpc = svc.bus.rpc;
  const posts = new PostRepository(ds);
  const approvals = new ApprovalRepository(ds);
  const relay = new OutboxRelay(ds, svc.bus.events, svc.logger.child({ module: 'outbox' }));
  const facts = new ProfileFactRepository(ds);

  const ports = approvalPorts(svc, config, { posts, approvals, relay, facts });
  registerRpc(svc.rpc, ports, facts);
  registerSummariesRpc(svc.rpc, {
    ds,
    posts,
    client: rpc,
    listProfiles: (principal, q) => ports.listProfiles(principal, q),
  });

  const scheduler = scheduleDuePosts(svc, config, approvals, relay);
  const results = consumeResults(svc.bus, posts);
  const profileFacts = consumeProfileFacts(svc.bus, facts, () => ports.clock());
  const http = await listen(approvalPages(ports, svc.logger.child({ module: 'approval-pages' })), svc.lifecycle, {
    port: config.POSTS_HTTP_PORT,
    host: config.HOST,
    name: 'approval pages',
  });

  const series = new SeriesExtender(ports, svc.logger.child({ module: 'series' }), config.SERIES_EXTEND_EVERY_MS);
  const renditionWaits = watchRenditionWaits(svc, config, ports, relay);
  const callSweep = sweepCallAnswers(svc, config.SCHEDULER_BATCH);
  await svc.rpc.start();
  await results.start();
  await profileFacts.start();
  series.start();
  renditionWaits.start();
  callSweep.start();
  svc.lifecycle.onStop('rendition waits', () => renditionWaits.stop());
  svc.lifecycle.onStop('call answers sweep', () => callSweep.stop());
  svc.lifecycle.onStop('series', () => series.stop());
  relay.start();
  scheduler.start();
  svc.lifecycle.onStop('relay', () => relay.stop());
  svc.metrics.trackOutbox(relay);
  svc.lifecycle.onStop('scheduler', () => scheduler.stop());
  svc.lifecycle.onStop('results', () => results.stop());
  svc.lifecycle.onStop('profile facts', () => profileFacts.stop());
  svc.logger.info('posts started', { approvalPages: http.url });
  return { ...svc, httpUrl: http.url };
}

/** What the use cases reach: the repositories, the approval signer and the other services over RPC. */
function approvalPorts(
  svc: ServiceRuntime,
  config: PostsConfig,
  deps: { posts: PostRepository; approvals: ApprovalRepository; relay: OutboxRelay; facts: ProfileFactRepository },
): ApprovalPorts {
  const rpc = svc.bus.rpc;
  const { relay } = deps;
  const listProfiles: ApprovalPorts['listProfiles'] = async (principal, q) =>
    (await rpc.call(Rpc.connectionsListProfiles, q, principal)).profiles;
  const clock = () => new Date();
  return {
    ds: svc.ds!,
    posts: deps.posts,
    approvals: deps.approvals,
    signer: new ApprovalSigner(config.APPROVAL_SIGNING_KEY),
    publicBaseUrl: config.PUBLIC_BASE_URL,
    ttlSeconds: config.APPROVAL_TTL_SECONDS,
    clock,
    nextTick: (now) => nextTick(now, config.SCHEDULER_TICK_MS),
    listProfiles,
    // Off (0): every create asks connections.
    ...(config.POSTS_PROFILE_FACTS_MAX_AGE_MS > 0 && {
      namedProfiles: (principal, ids) =>
        namedProfiles(
          { facts: deps.facts, listProfiles, clock, maxAgeMs: config.POSTS_PROFILE_FACTS_MAX_AGE_MS },
          principal,
          ids,
        ),
    }),
    connectionHealth: (principal, profileId) => rpc.call(Rpc.connectionsHealth, { id: profileId }, principal),
    resolveMedia: (principal, mediaId) => rpc.call(Rpc.mediaResolve, { mediaId }, principal),
    requestRendition: (principal, req) => rpc.call(Rpc.mediaRequestRendition, req, principal),
    getAccount: (principal) => rpc.call(Rpc.authGetAccount, {}, principal),
    tiktokPullPrefixes: config.TIKTOK_PULL_URL_PREFIXES,
    seriesHorizonDays: config.SERIES_HORIZON_DAYS,
    announce: () => relay.kick(),
  };
}

/** Dispatches due posts each tick; housekeeping expires approvals and announces again posts whose outcome never came. */
function scheduleDuePosts(
  svc: ServiceRuntime,
  config: PostsConfig,
  approvals: ApprovalRepository,
  relay: OutboxRelay,
): Scheduler {
  const ds = svc.ds!;
  return new Scheduler(ds, svc.logger.child({ module: 'scheduler' }), {
    tickMs: config.SCHEDULER_TICK_MS,
    batch: config.SCHEDULER_BATCH,
    onDispatched: () => relay.kick(),
    observeLag: (seconds) => svc.metrics.dispatched(seconds),
    housekeeping: async () => {
      await approvals.expireDue();
      const again = await redispatchStalled(ds, {
        afterMs: config.POSTS_REDISPATCH_AFTER_MS,
        limit: config.SCHEDULER_BATCH,
      });
      if (!again) return;
      svc.metrics.redispatched(again);
      svc.logger.warn('posts announced again: no outcome came back in time', {
        count: again,
        afterMs: config.POSTS_REDISPATCH_AFTER_MS,
      });
      relay.kick();
    },
  });
}

/** Settles posts waiting for a rendition, asking media how each one is doing. */
function watchRenditionWaits(
  svc: ServiceRuntime,
  config: PostsConfig,
  ports: ApprovalPorts,
  relay: OutboxRelay,
): PeriodicLoop<number> {
  const ds = svc.ds!;
  const rpc = svc.bus.rpc;
  const renditionLogger = svc.logger.child({ module: 'renditions' });
  return new PeriodicLoop(
    () =>
      settleRenditionWaits({
        ds,
        getMedia: (principal, mediaId) => rpc.call(Rpc.mediaGet, { mediaId }, principal),
        clock: () => ports.clock(),
        ceilingMs: config.POSTS_RENDITION_WAIT_MAX_MS,
        batch: config.SCHEDULER_BATCH,
        logger: renditionLogger,
        announce: () => relay.kick(),
      }),
    {
      everyMs: config.POSTS_RENDITION_POLL_MS,
      again: (n) => n === config.SCHEDULER_BATCH,
      onError: (err) => renditionLogger.warn('rendition watch failed', { err: err.message }),
    },
  );
}

/** Now and then drops the answers kept for RPC call ids a day old, a batch at a time. */
function sweepCallAnswers(svc: ServiceRuntime, batch: number): PeriodicLoop<number> {
  const db = databaseOf(svc.ds!);
  return new PeriodicLoop(() => forgetOldCalls(db, batch), {
    everyMs: 10 * 60_000,
    unref: true,
    again: (n) => n === batch,
    onError: (err) => svc.logger.warn('call answers sweep failed', { err: err.message }),
  });
}

if (require.main === module) runMain(start);
