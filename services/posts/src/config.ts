import { ConfigError, int, loadConfig, oneOf, str, url } from '@postbus/kit';
import { tiktokPullVars } from '@postbus/platforms';
import { serviceVars } from '@postbus/service';

/** Signs approval links in development and tests; production refuses it. */
export const DEV_APPROVAL_SIGNING_KEY = 'postbus-development-approval-signing-key';

export const postsVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf(
    'development | test | production; production refuses development secrets',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  SCHEDULER_TICK_MS: int('How often the scheduler looks for due posts at the latest (ms)', 1000, 10),
  SCHEDULER_BATCH: int('Most posts the scheduler dispatches per transaction', 500, 1),
  POSTS_REDISPATCH_AFTER_MS: int(
    'A dispatched post with no outcome after this long is announced again (ms); the publisher makes the repeat safe',
    600_000,
    1000,
  ),
  POSTS_RENDITION_WAIT_MAX_MS: int(
    "How long past its scheduled time a post may wait for its rendition (normalize) before it fails, the rendition's progress in the reason (ms)",
    1_800_000,
    1,
  ),
  POSTS_RENDITION_POLL_MS: int(
    'How often posts asks media whether the renditions posts wait for are made (ms)',
    2000,
    10,
  ),
  SERIES_HORIZON_DAYS: int(
    'How far ahead the occurrences of a recurring post exist as posts (days); later ones are created as time passes',
    30,
    1,
  ),
  SERIES_EXTEND_EVERY_MS: int('How often recurring posts are extended to the horizon (ms)', 60_000, 100),
  POSTS_PROFILE_FACTS_MAX_AGE_MS: int(
    "How long a profile's status heard from connections is trusted for a create before connections is asked again (ms). connections tells posts of a profile leaving active (a disconnect, a token refused for good) before that change commits; the bound caps a fact wrong for any other reason, such as a database restored from a backup. 0: every create asks connections",
    30_000,
    0,
  ),
  PUBLIC_BASE_URL: url('The {base_url} clients see; approval links are built under it', 'http://localhost:3000'),
  HOST: str('Interface the approval pages listener binds', '0.0.0.0'),
  POSTS_HTTP_PORT: int('Port of the approval pages listener (the gateway streams /approvals to it)', 3005),
  APPROVAL_TTL_SECONDS: int(
    'How long an approval link stays valid; an expired request returns the post to draft',
    72 * 3600,
    1,
  ),
  // Shared with the publisher: a TikTok photo post is refused at create unless TikTok may pull every photo.
  ...tiktokPullVars,
  APPROVAL_SIGNING_KEY: str(
    'Secret that signs approval links (HMAC-SHA256); at least 32 characters',
    DEV_APPROVAL_SIGNING_KEY,
  ),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(postsVars, env);
  const problems: string[] = [];
  if (config.APPROVAL_SIGNING_KEY.length < 32) problems.push('APPROVAL_SIGNING_KEY must be at least 32 characters');
  if (config.POSTBUS_ENV === 'production' && config.APPROVAL_SIGNING_KEY === DEV_APPROVAL_SIGNING_KEY)
    problems.push('APPROVAL_SIGNING_KEY must be set in production');
  if (problems.length) throw new ConfigError(problems);
  return config;
}
export type PostsConfig = ReturnType<typeof readConfig>;
