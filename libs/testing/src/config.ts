/** The servers tests carve their databases and namespaces out of (the only reader of process.env here). */
export const testServers = {
  adminDatabaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  amqpUrl: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  /** TEST_LOG_LEVEL=info shows the services' logs while a test runs. */
  logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
  /** Debian's Chromium, which the browser tests drive (npm test installs it when missing). */
  chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  /** Debian's ffmpeg, which makes the test videos and images (the media service's FFMPEG_PATH). */
  ffmpegPath: process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg',
};
