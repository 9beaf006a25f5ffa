import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Lifecycle, createLogger, runMain } from '@postbus/kit';
import { createSandboxApp, SANDBOX_PATHS, type CreateSandboxAppOptions } from './app';
import { loadSandboxConfig } from './config';
import { DEFAULT_MEDIA_INSPECTION, type SandboxState } from './state';

export { createSandboxApp, SANDBOX_PATHS, type CreateSandboxAppOptions } from './app';
export type { SandboxAppOptions, SandboxSettings } from './state';
export { SandboxState } from './state';
export type { PublishedItem } from './published';
export type { Fault, FaultSpec, FaultMode, FaultOperation } from './faults';

export interface StartSandboxOptions extends CreateSandboxAppOptions {
  /** 0 picks a free port; default 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningSandbox {
  /** e.g. `http://127.0.0.1:4010`; Threads clients use `${url}/threads/v1.0`. */
  url: string;
  state: SandboxState;
  close(): Promise<void>;
}

export const DEFAULT_SANDBOX_PORT = 4010;

/** Starts the sandbox on loopback and answers once it is listening. */
export async function startSandbox(opts: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port = DEFAULT_SANDBOX_PORT, host = '127.0.0.1', ...appOptions } = opts;
  const { app, state } = createSandboxApp(appOptions);
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${address.port}`,
    state,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        state.held.releaseAll();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

if (require.main === module) {
  runMain(async () => {
    const config = loadSandboxConfig();
    const logger = createLogger('sandbox', config.LOG_LEVEL);
    const sandbox = await startSandbox({
      port: config.SANDBOX_PORT,
      host: config.SANDBOX_HOST,
      processingDelayMs: config.SANDBOX_PROCESSING_DELAY_MS,
      latencyMs: config.SANDBOX_LATENCY_MS,
      threads: { quotaTotal: config.SANDBOX_THREADS_QUOTA_TOTAL },
      mediaInspection: config.SANDBOX_FFPROBE_PATH
        ? { ...DEFAULT_MEDIA_INSPECTION, ffprobePath: config.SANDBOX_FFPROBE_PATH }
        : null,
      tiktok: { verifiedUrlPrefixes: config.SANDBOX_TIKTOK_VERIFIED_URL_PREFIXES },
      blueskyOAuth: { allowLoopbackClientMetadata: config.SANDBOX_BLUESKY_LOOPBACK_CLIENT_METADATA },
      tiktokAudit: {
        unaudited: !config.SANDBOX_TIKTOK_AUDITED,
        usersPerDay: config.SANDBOX_TIKTOK_UNAUDITED_USERS_PER_DAY,
      },
      logger,
    });
    logger.info('sandbox listening', { url: sandbox.url, threads: `${sandbox.url}${SANDBOX_PATHS.threads}` });
    const lifecycle = new Lifecycle(logger);
    lifecycle.onStop('sandbox http', () => sandbox.close());
    return { lifecycle };
  });
}
