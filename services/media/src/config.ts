import { join } from 'node:path';
import { bool, ConfigError, int, loadConfig, oneOf, str, url } from '@postbus/kit';
import { serviceVars } from '@postbus/service';

export const DEV_SIGNING_SECRET = 'development-media-signing-secret';
/** As many bytes as the HMAC-SHA256 output: a shorter secret is easier to guess than the signature. */
export const MIN_SIGNING_SECRET_BYTES = 32;

export const mediaVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf(
    'development | test | production; production refuses development secrets',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  MEDIA_HTTP_PORT: int(
    "Port of media's own HTTP listener (uploads and signed file URLs, proxied by the gateway)",
    3002,
  ),
  HOST: str('Interface the HTTP listener binds', '0.0.0.0'),
  PUBLIC_BASE_URL: url(
    'The {base_url} clients see; signed URLs answered over RPC start with it',
    'http://localhost:3000',
  ),
  MEDIA_STORAGE: oneOf('Where media bytes live: local (a directory) or s3', ['local', 's3'] as const, 'local'),
  MEDIA_LOCAL_DIR: str(
    'Directory of the local storage driver (empty: .data/media/<database name>, beside the database whose rows name the objects)',
    '',
  ),
  MEDIA_S3_BUCKET: str('Bucket of the s3 storage driver (required with MEDIA_STORAGE=s3)', ''),
  MEDIA_S3_REGION: str('Region of the bucket', 'us-east-1'),
  MEDIA_S3_ENDPOINT: str('Endpoint of an S3-compatible store (empty: AWS)', ''),
  MEDIA_S3_FORCE_PATH_STYLE: bool(
    'Address the bucket in the path (S3-compatible stores) instead of the host name',
    false,
  ),
  MEDIA_S3_ACCESS_KEY_ID: str("Access key id (empty: the AWS SDK's default credential chain)", ''),
  MEDIA_S3_SECRET_ACCESS_KEY: str('Secret access key (with MEDIA_S3_ACCESS_KEY_ID)', ''),
  MEDIA_SIGNING_SECRET: str(
    `HMAC-SHA256 secret that signs serve URLs (required in production, at least ${MIN_SIGNING_SECRET_BYTES} bytes there: openssl rand -base64 32)`,
    DEV_SIGNING_SECRET,
  ),
  MEDIA_URL_TTL_SECONDS: int('Lifetime of a signed serve URL, in seconds', 7 * 24 * 3600, 1),
  MEDIA_ALLOW_LOOPBACK_IMPORTS: bool('Let link imports reach loopback addresses (tests and development only)', false),
  MEDIA_IMPORT_CONNECT_TIMEOUT_MS: int('Link import: longest wait for a connection (ms)', 10_000, 1),
  MEDIA_IMPORT_IDLE_TIMEOUT_MS: int('Link import: longest silence of the remote server (ms)', 15_000, 1),
  MEDIA_IMPORT_TIMEOUT_MS: int('Link import: longest whole download, redirects included (ms)', 60_000, 1),
  FFPROBE_PATH: str(
    'The ffprobe binary that reads every stored file once (container, size, duration, codecs); Debian package ffmpeg',
    '/usr/bin/ffprobe',
  ),
  FFMPEG_PATH: str(
    'The ffmpeg binary, installed beside ffprobe (the same package) and used to make test files; not run by the service itself yet',
    '/usr/bin/ffmpeg',
  ),
  HEIF_CONVERT_PATH: str(
    "libheif's heif-convert (Debian package libheif-examples): decodes HEIC photos to probe them, as Debian's ffmpeg cannot read them",
    '/usr/bin/heif-convert',
  ),
  MEDIA_PROBE_TIMEOUT_MS: int(
    'Longest ffprobe run on one file (ms); a file not read by then is refused as media_unreadable',
    20_000,
    1,
  ),
  MEDIA_RENDITION_MAX_BYTES: int(
    'Largest rendition (normalize) the transcoder may store, in bytes; renditions do not count against upload limits',
    1024 * 1024 * 1024,
    1,
  ),
  MEDIA_PROBE_CONCURRENCY: int(
    'ffprobe processes one media replica runs at once; further uploads wait their turn',
    2,
    1,
  ),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(mediaVars, env);
  const problems: string[] = [];
  if (config.MEDIA_STORAGE === 's3' && !config.MEDIA_S3_BUCKET)
    problems.push('MEDIA_S3_BUCKET is required with MEDIA_STORAGE=s3');
  if (!!config.MEDIA_S3_ACCESS_KEY_ID !== !!config.MEDIA_S3_SECRET_ACCESS_KEY)
    problems.push('MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY go together');
  if (config.POSTBUS_ENV === 'production' && config.MEDIA_SIGNING_SECRET === DEV_SIGNING_SECRET)
    problems.push('MEDIA_SIGNING_SECRET must be set in production');
  else if (
    config.POSTBUS_ENV === 'production' &&
    Buffer.byteLength(config.MEDIA_SIGNING_SECRET) < MIN_SIGNING_SECRET_BYTES
  ) {
    problems.push(
      `MEDIA_SIGNING_SECRET must be at least ${MIN_SIGNING_SECRET_BYTES} bytes in production (it is ${Buffer.byteLength(config.MEDIA_SIGNING_SECRET)}); generate one with openssl rand -base64 32`,
    );
  }
  if (config.POSTBUS_ENV === 'production' && config.MEDIA_ALLOW_LOOPBACK_IMPORTS)
    problems.push('MEDIA_ALLOW_LOOPBACK_IMPORTS must be false in production');
  if (problems.length) throw new ConfigError(problems);
  return { ...config, MEDIA_LOCAL_DIR: config.MEDIA_LOCAL_DIR || localDirFor(config.DATABASE_URL) };
}

/**
 * The objects of a database's media rows live and die with that database: another database
 * (a second checkout, a test run) gets a directory of its own, never objects it did not write.
 */
export function localDirFor(databaseUrl: string): string {
  const name = new URL(databaseUrl).pathname
    .slice(1)
    .replace(/[^\w.-]/g, '_')
    .replace(/^\.+/, '_');
  return join('.data', 'media', name || 'postgres');
}
export type MediaConfig = ReturnType<typeof readConfig>;
