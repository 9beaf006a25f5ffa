/**
 * Publisher's settings shortened for tests (backoffs, retries, throttling, polls, timeouts, upload
 * chunks): passed to publisher alone by its own tests and to the whole system by tests/system.
 */
export const FAST_PUBLISHER_ENV: Record<string, string> = {
  PUBLISHER_BACKOFF_BASE_MS: '40',
  PUBLISHER_BACKOFF_MAX_MS: '200',
  PUBLISHER_RETRY_DELAYS_MS: '100,200',
  PUBLISHER_THROTTLE_MIN_DEFER_MS: '50',
  PUBLISHER_THROTTLE_MAX_DEFER_MS: '300',
  PLATFORM_POLL_INTERVAL_MS: '20',
  PLATFORM_POLL_MAX_INTERVAL_MS: '100',
  PUBLISHER_WORKER_HEARTBEAT_MS: '200',
  PLATFORM_REQUEST_TIMEOUT_MS: '2000',
  PLATFORM_UPLOAD_TIMEOUT_MS: '3000',
  YOUTUBE_CHUNK_BYTES: '262144',
  TIKTOK_CHUNK_BYTES: '65536',
  // the media hosts of these tests listen on 127.0.0.1
  PUBLISHER_ALLOW_LOOPBACK_MEDIA: 'true',
};
