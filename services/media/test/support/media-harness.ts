import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start as startAuth } from '@postbus/auth';
import { openBus, type Bus } from '@postbus/bus';
import { createLogger } from '@postbus/kit';
import { createTestEnv, seedAccount, type SeededAccount, type TestEnv } from '@postbus/testing';
import { start as startMedia } from '../../src/main';

export const TEST_SIGNING_SECRET = 'media-tests-secret';
export const TEST_BASE_URL = 'http://postbus.test';

export interface MediaHarness {
  env: TestEnv;
  /** Media's own listener, as an Ingress would reach it. */
  mediaUrl: string;
  /** Media's operations listener (`/metrics`). */
  metricsUrl: string;
  /** Where the local driver keeps objects (unused with s3). */
  localDir: string;
  bus: Bus;
  account(opts?: { plan?: string; tester?: boolean; scopes?: string[] }): Promise<SeededAccount>;
  /** Every object file the local driver holds. */
  storedObjects(): Promise<string[]>;
  stop(): Promise<void>;
}

/** auth and media in this process against a test file's own database and bus namespace. */
export async function startMediaHarness(label: string, extraEnv: Record<string, string> = {}): Promise<MediaHarness> {
  const env = await createTestEnv(label);
  const localDir = await mkdtemp(join(tmpdir(), 'postbus-media-test-'));
  const common: Record<string, string> = {
    ...env.env,
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    PUBLIC_BASE_URL: TEST_BASE_URL,
    MEDIA_LOCAL_DIR: localDir,
    MEDIA_SIGNING_SECRET: TEST_SIGNING_SECRET,
    MEDIA_ALLOW_LOOPBACK_IMPORTS: 'true',
    ...extraEnv,
  };
  const stops: (() => Promise<unknown>)[] = [() => env.drop(), () => rm(localDir, { recursive: true, force: true })];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const auth = await startAuth({ ...common, AUTH_HTTP_PORT: '0' });
    stops.push(() => auth.lifecycle.stop());
    const media = await startMedia({ ...common, MEDIA_HTTP_PORT: '0' });
    stops.push(() => media.lifecycle.stop());
    const bus = await openBus({
      url: env.amqpUrl,
      namespace: env.namespace,
      logger: createLogger('test', 'silent'),
      rpcTimeoutMs: 10_000,
      ephemeral: true,
    });
    stops.push(() => bus.close());
    return {
      env,
      mediaUrl: media.httpUrl,
      metricsUrl: media.metricsUrl,
      localDir,
      bus,
      account: (opts = {}) =>
        seedAccount(bus.rpc, 'http://127.0.0.1:9', {
          email: `media-${randomBytes(4).toString('hex')}@example.com`,
          platforms: [],
          ...opts,
        }),
      storedObjects: () => listFiles(join(localDir, 'objects')),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name));
}

/** POSTs a multipart body with one file part (or none). */
export async function uploadTo(
  baseUrl: string,
  key: string | undefined,
  file?: { bytes: Buffer; name?: string; type?: string; field?: string },
) {
  const form = new FormData();
  if (file)
    form.append(
      file.field ?? 'file',
      new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }),
      file.name ?? 'upload.bin',
    );
  else form.append('caption', 'no file here');
  const res = await fetch(`${baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: key ? { authorization: `Bearer ${key}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** A serve URL signed with the test secret, for expiries the service would never hand out. */
export function signedPath(mediaId: string, expires: number, secret = TEST_SIGNING_SECRET): string {
  const sig = createHmac('sha256', secret).update(`${mediaId}\n${expires}`).digest('base64url');
  return `/files/${mediaId}?expires=${expires}&sig=${sig}`;
}

/** The path and query of a signed URL, to fetch it from a listener other than its base URL. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
