import {
  ConfigError,
  fillSandboxUrls,
  int,
  loadConfig,
  msList,
  oneOf,
  sandboxDefault,
  sandboxVars,
  str,
} from '@postbus/kit';
import {
  MASTODON_SANDBOX_PATH,
  mastodonInstanceUrlVar,
  metaHostVar,
  metaVersionVars,
  versionedBase,
} from '@postbus/platforms';
import { serviceVars } from '@postbus/service';

/** The sandbox apps' secret: it signs the sandbox's comment webhooks; production refuses it. */
export const DEV_META_APP_SECRET = 'sandbox-secret';
export const DEV_META_VERIFY_TOKEN = 'postbus-development-verify-token';

export const automationVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf(
    'development | test | production; production refuses development secrets',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  HOST: str('Interface the webhook listener binds', '0.0.0.0'),
  AUTOMATION_HTTP_PORT: int('Port of the comment webhook listener (the gateway streams /webhooks/meta to it)', 3007),
  META_APP_SECRET: str(
    'App Secret of the Meta app (Instagram and Facebook): X-Hub-Signature-256 of every comment webhook is checked against it',
    DEV_META_APP_SECRET,
  ),
  THREADS_APP_SECRET: str(
    'App Secret of the Threads app, which signs Threads reply webhooks; empty: they are checked against META_APP_SECRET only',
    '',
  ),
  META_VERIFY_TOKEN: str(
    'The verify token set in the Meta app dashboard; the subscription handshake echoes hub.challenge only when it matches',
    DEV_META_VERIFY_TOKEN,
  ),
  AUTOMATION_WEBHOOK_BODY_LIMIT: str('Largest comment webhook body accepted', '1mb'),
  AUTOMATION_RETRY_DELAYS_MS: msList(
    'Delays before a reply refused for a passing reason (throttling, 5xx, services unavailable) is tried again; their count bounds the attempts',
    [2000, 10_000, 60_000, 300_000],
  ),
  AUTOMATION_CONCURRENCY: int('Comments one automation process answers at once', 8, 1),
  PLATFORM_REQUEST_TIMEOUT_MS: int('Deadline of one reply call to a platform', 10_000, 1),
  ...sandboxVars,
  ...metaVersionVars,
  INSTAGRAM_API_URL: metaHostVar(
    'Instagram Graph host, META_GRAPH_VERSION appended; real: https://graph.instagram.com (empty: under SANDBOX_URL)',
  ),
  FACEBOOK_API_URL: metaHostVar(
    'Facebook Graph host, META_GRAPH_VERSION appended; real: https://graph.facebook.com (empty: under SANDBOX_URL)',
  ),
  THREADS_API_URL: metaHostVar(
    'Threads host, THREADS_API_VERSION appended; real: https://graph.threads.net (empty: under SANDBOX_URL)',
  ),
  MASTODON_INSTANCE_URL: mastodonInstanceUrlVar(
    'Where Mastodon instances are reached for mentions and replies; real: https://{instance}',
  ),
  BLUESKY_SERVICE_URL: sandboxDefault(
    'Bluesky PDS (or entryway) that reply notifications are read from and replies written to for app-password profiles (OAuth profiles use their own PDS); it proxies listNotifications to its AppView; real: https://bsky.social',
  ),
  AUTOMATION_POLL_MS: int(
    'Pause between two reads of the comments of platforms that send no webhooks (Mastodon mentions, Bluesky reply notifications), per profile with an enabled template',
    60_000,
    1,
  ),
  PLATFORM_POLL_INTERVAL_MS: int(
    'Pause between status checks of a Threads reply container before it is published',
    1000,
    1,
  ),
};

const SANDBOX_PATHS = {
  INSTAGRAM_API_URL: '/instagram',
  FACEBOOK_API_URL: '/facebook',
  THREADS_API_URL: '/threads',
  MASTODON_INSTANCE_URL: MASTODON_SANDBOX_PATH,
  BLUESKY_SERVICE_URL: '/bluesky',
} as const;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(automationVars, env);
  fillSandboxUrls(config, SANDBOX_PATHS);
  config.INSTAGRAM_API_URL = versionedBase(config.INSTAGRAM_API_URL, config.META_GRAPH_VERSION);
  config.FACEBOOK_API_URL = versionedBase(config.FACEBOOK_API_URL, config.META_GRAPH_VERSION);
  config.THREADS_API_URL = versionedBase(config.THREADS_API_URL, config.THREADS_API_VERSION);
  const problems: string[] = [];
  if (config.POSTBUS_ENV === 'production' && config.META_APP_SECRET === DEV_META_APP_SECRET)
    problems.push('META_APP_SECRET must be set in production');
  if (config.POSTBUS_ENV === 'production' && config.THREADS_APP_SECRET === DEV_META_APP_SECRET)
    problems.push('THREADS_APP_SECRET must not be the development secret in production');
  if (config.POSTBUS_ENV === 'production' && config.META_VERIFY_TOKEN === DEV_META_VERIFY_TOKEN)
    problems.push('META_VERIFY_TOKEN must be set in production');
  if (problems.length) throw new ConfigError(problems);
  return config;
}
export type AutomationConfig = ReturnType<typeof readConfig>;
