import { Rpc } from '@postbus/contracts';
import { OutboxRelay } from '@postbus/bus';
import { runMain } from '@postbus/kit';
import type { Resolver } from '@postbus/net';
import { apiKeyAuth, bootService, listen, PrincipalCache } from '@postbus/service';
import { readConfig } from './config';
import { createHttpApp } from './entry-points/http';
import { registerRpc } from './entry-points/rpc';
import { registerSummariesRpc } from './entry-points/summaries-rpc';
import type { ImportPorts } from './library/import-from-url.use-case';
import { MediaRepository } from './library/media.repository';
import { downloadLink } from './link-import/download-link';
import { migrations } from './migrations';
import type { RenditionPorts } from './renditions/rendition-ports';
import { RenditionRepository } from './renditions/rendition.repository';
import { RenditionUploadSigner } from './renditions/upload-signer';
import { UploadUrlSigner, type UploadUrlPorts } from './library/upload-url';
import { assertFfprobe } from './probe/assert-ffprobe';
import { objectProber } from './probe/probe-stored-object';
import { UrlSigner } from './serving/url-signer';
import { createMediaStore } from './storage/create-media-store';

/** `deps.resolve` replaces the system's DNS for link imports (tests play answers that point anywhere). */
export async function start(env?: Record<string, string | undefined>, deps: { resolve?: Resolver } = {}) {
  const config = readConfig(env);
  await assertFfprobe(config.FFPROBE_PATH);
  const svc = await bootService({ name: 'media', config, schema: 'media', migrations });
  const relay = new OutboxRelay(svc.ds!, svc.bus.events, svc.logger.child({ module: 'outbox' }));
  const store = createMediaStore(config);
  // Stopped after the listener (registered later, stopped earlier); the RPCs in flight finish first.
  svc.lifecycle.onStop('storage', async () => {
    await svc.rpc.stop();
    store.close?.();
  });

  const ports: ImportPorts & RenditionPorts & UploadUrlPorts = {
    media: new MediaRepository(svc.ds!),
    store,
    probe: objectProber(store, {
      ffprobePath: config.FFPROBE_PATH,
      heifConvertPath: config.HEIF_CONVERT_PATH,
      timeoutMs: config.MEDIA_PROBE_TIMEOUT_MS,
      concurrency: config.MEDIA_PROBE_CONCURRENCY,
    }),
    signer: new UrlSigner(config.MEDIA_SIGNING_SECRET, config.MEDIA_URL_TTL_SECONDS),
    renditions: new RenditionRepository(svc.ds!),
    renditionUploads: new RenditionUploadSigner(config.MEDIA_SIGNING_SECRET),
    uploadUrls: new UploadUrlSigner(config.MEDIA_SIGNING_SECRET),
    maxRenditionBytes: config.MEDIA_RENDITION_MAX_BYTES,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    accountOf: (principal) => svc.bus.rpc.call(Rpc.authGetAccount, {}, principal),
    announce: () => relay.kick(),
    logger: svc.logger,
    countMissingObject: (operation) => svc.metrics.mediaObjectMissing(operation),
    download: (url, checkUrl) =>
      downloadLink(
        url,
        {
          allowLoopback: config.MEDIA_ALLOW_LOOPBACK_IMPORTS,
          connectTimeoutMs: config.MEDIA_IMPORT_CONNECT_TIMEOUT_MS,
          idleTimeoutMs: config.MEDIA_IMPORT_IDLE_TIMEOUT_MS,
          totalTimeoutMs: config.MEDIA_IMPORT_TIMEOUT_MS,
          maxRedirects: 3,
          resolve: deps.resolve,
        },
        checkUrl,
      ),
  };
  registerRpc(svc.rpc, ports);
  registerSummariesRpc(svc.rpc, ports.media);
  // Uploads are rare next to API calls: every one is verified with auth, none cached.
  const auth = apiKeyAuth(svc.bus.rpc, new PrincipalCache(0));
  const http = await listen(createHttpApp(ports, auth), svc.lifecycle, {
    port: config.MEDIA_HTTP_PORT,
    host: config.HOST,
    name: 'http',
  });

  await svc.rpc.start();
  relay.start();
  svc.metrics.trackOutbox(relay);
  svc.lifecycle.onStop('relay', () => relay.stop());
  svc.logger.info('media started', { httpUrl: http.url });
  return { ...svc, httpUrl: http.url, port: http.port };
}

if (require.main === module) runMain(start);
