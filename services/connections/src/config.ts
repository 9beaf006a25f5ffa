import {
  ConfigError,
  bool,
  exactSandboxDefault,
  fillSandboxUrls,
  int,
  keyIdVar,
  loadConfig,
  oneOf,
  previousKeysVar,
  sandboxVars,
  sealingKeyProblems,
  str,
  url,
} from '@postbus/kit';
import type { JsonWebKey } from 'node:crypto';
import {
  MASTODON_SANDBOX_PATH,
  clientPublicJwk,
  mastodonInstanceUrlVar,
  linkedInVersionVar,
  metaHostVar,
  metaVersionVars,
  versionedBase,
} from '@postbus/platforms';
import { serviceVars } from '@postbus/service';

export const DEV_TOKEN_KEY = Buffer.alloc(32, 7).toString('base64');
const SANDBOX_CLIENT_SECRET = 'sandbox-secret';

export const connectionsVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf(
    'development | test | production; production refuses development secrets',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  TOKEN_ENCRYPTION_KEY: str('Base64 32-byte AES-256-GCM key that encrypts platform tokens at rest', DEV_TOKEN_KEY),
  TOKEN_KEY_ID: keyIdVar(
    'Id of TOKEN_ENCRYPTION_KEY, stored beside each token for rotation (letters, digits, _ . -)',
    'dev',
  ),
  TOKEN_PREVIOUS_KEYS: previousKeysVar(
    'Earlier keys still accepted for reading during a rotation, "id:base64,id:base64"',
  ),
  CONNECTIONS_HTTP_PORT: int(
    'Port of the connect handoff pages and platform OAuth callbacks (behind the gateway)',
    3004,
  ),
  CONNECTIONS_HTTP_HOST: str('Interface that listener binds', '127.0.0.1'),
  PUBLIC_BASE_URL: url(
    'The {base_url} clients see; connect links and OAuth redirect URIs are under it',
    'http://localhost:3000',
  ),
  CONNECT_LINK_TTL_SECONDS: int('Lifetime of a connection request link', 900, 1),
  TOKEN_REFRESH_INTERVAL_MS: int('How often tokens close to expiry are looked for and refreshed', 60_000, 1),
  TOKEN_REFRESH_AHEAD_SECONDS: int(
    'A token is refreshed once it has this little left (or a fifth of its lifetime, whichever is longer)',
    900,
  ),
  TOKEN_REFRESH_DEDUP_MS: int(
    'A refresh asked for this soon after the last one answers the current token (several publishers may hit one expired token at once)',
    10_000,
  ),
  PLATFORM_HTTP_TIMEOUT_MS: int('Deadline of each OAuth or profile call to a platform', 10_000, 1),
  ...sandboxVars,
  INSTAGRAM_CLIENT_ID: str('Instagram app id (Instagram Login)', 'postbus-sandbox'),
  INSTAGRAM_CLIENT_SECRET: str('Instagram app secret', SANDBOX_CLIENT_SECRET),
  INSTAGRAM_AUTHORIZE_URL: exactSandboxDefault(
    'Instagram consent page; real: https://www.instagram.com/oauth/authorize',
  ),
  INSTAGRAM_TOKEN_URL: exactSandboxDefault(
    'Instagram code exchange; real: https://api.instagram.com/oauth/access_token',
  ),
  INSTAGRAM_GRAPH_URL: exactSandboxDefault(
    'Instagram Graph host (long-lived exchange, refresh, /me); real: https://graph.instagram.com',
  ),
  FACEBOOK_CLIENT_ID: str('Facebook app id', 'postbus-sandbox'),
  FACEBOOK_CLIENT_SECRET: str('Facebook app secret', SANDBOX_CLIENT_SECRET),
  ...metaVersionVars,
  FACEBOOK_AUTHORIZE_URL: metaHostVar(
    'Facebook Login dialog host, /{META_GRAPH_VERSION}/dialog/oauth appended; real: https://www.facebook.com',
  ),
  FACEBOOK_GRAPH_URL: metaHostVar(
    'Facebook Graph host (code exchange, long-lived exchange, /me/accounts), META_GRAPH_VERSION appended; real: https://graph.facebook.com',
  ),
  THREADS_CLIENT_ID: str('Threads app id', 'postbus-sandbox'),
  THREADS_CLIENT_SECRET: str('Threads app secret', SANDBOX_CLIENT_SECRET),
  THREADS_AUTHORIZE_URL: exactSandboxDefault('Threads consent page; real: https://threads.net/oauth/authorize'),
  THREADS_GRAPH_URL: exactSandboxDefault(
    'Threads Graph host (code exchange, long-lived exchange, refresh); real: https://graph.threads.net',
  ),
  THREADS_API_URL: metaHostVar('Threads API host (/me), THREADS_API_VERSION appended; real: https://graph.threads.net'),
  TIKTOK_CLIENT_KEY: str('TikTok client key', 'postbus-sandbox'),
  TIKTOK_CLIENT_SECRET: str('TikTok client secret', SANDBOX_CLIENT_SECRET),
  TIKTOK_AUTHORIZE_URL: exactSandboxDefault('TikTok consent page; real: https://www.tiktok.com/v2/auth/authorize/'),
  TIKTOK_API_URL: exactSandboxDefault(
    'TikTok Open API (token, user info, creator info); real: https://open.tiktokapis.com',
  ),
  TIKTOK_CLIENT_AUDITED: bool(
    "Whether the TikTok app passed TikTok's content-posting audit; until then TikTok takes SELF_ONLY posts to private accounts only, from 5 users a day (developers.tiktok.com/doc/content-sharing-guidelines)",
    false,
  ),
  YOUTUBE_CLIENT_ID: str('Google OAuth client id', 'postbus-sandbox'),
  YOUTUBE_CLIENT_SECRET: str('Google OAuth client secret', SANDBOX_CLIENT_SECRET),
  YOUTUBE_AUTHORIZE_URL: exactSandboxDefault('Google consent page; real: https://accounts.google.com/o/oauth2/v2/auth'),
  YOUTUBE_TOKEN_URL: exactSandboxDefault('Google token endpoint; real: https://oauth2.googleapis.com/token'),
  YOUTUBE_API_URL: exactSandboxDefault('YouTube Data API; real: https://www.googleapis.com/youtube/v3'),
  BLUESKY_SERVICE_URL: exactSandboxDefault(
    'Bluesky PDS (or entryway) where accounts sign in with an app password and renew their sessions; real: https://bsky.social',
  ),
  BLUESKY_PLC_URL: exactSandboxDefault(
    'PLC directory where did:plc documents are read when signing in with Bluesky through OAuth; real: https://plc.directory',
  ),
  BLUESKY_OAUTH_CLIENT_KEY: str(
    'Bluesky OAuth confidential client key: a private ES256 (P-256) JWK as JSON, with a "kid"; its public half is served at /oauth/bluesky/jwks.json. Empty: a loopback development client when PUBLIC_BASE_URL is on 127.0.0.1 or [::1], else (and always in production) no sign-in with Bluesky',
    '',
  ),
  MASTODON_INSTANCE_URL: mastodonInstanceUrlVar(
    'Base URL of a Mastodon instance, {instance} standing for the host a person names when connecting (apps are registered there, then OAuth); real: https://{instance}',
  ),
  LINKEDIN_CLIENT_ID: str('LinkedIn app client id (linkedin.com/developers/apps, Auth tab)', 'postbus-sandbox'),
  LINKEDIN_CLIENT_SECRET: str('LinkedIn app primary client secret', SANDBOX_CLIENT_SECRET),
  LINKEDIN_AUTHORIZE_URL: exactSandboxDefault(
    'LinkedIn consent page; real: https://www.linkedin.com/oauth/v2/authorization',
  ),
  LINKEDIN_TOKEN_URL: exactSandboxDefault(
    'LinkedIn token endpoint; real: https://www.linkedin.com/oauth/v2/accessToken',
  ),
  LINKEDIN_API_URL: exactSandboxDefault(
    'LinkedIn API host (/v2/userinfo, /rest/organizationAcls, /rest/organizations); real: https://api.linkedin.com',
  ),
  LINKEDIN_API_VERSION: linkedInVersionVar(
    'LinkedIn-Version (YYYYMM) of the /rest calls; LinkedIn serves a version about a year (learn.microsoft.com/linkedin/marketing/versioning)',
  ),
  X_CLIENT_ID: str(
    'X OAuth 2.0 client id (the app in the X Developer Console; its pay-per-use credits pay for every call)',
    'postbus-sandbox',
  ),
  X_CLIENT_SECRET: str('X OAuth 2.0 client secret (confidential client)', SANDBOX_CLIENT_SECRET),
  X_AUTHORIZE_URL: exactSandboxDefault('X consent page; real: https://x.com/i/oauth2/authorize'),
  X_API_URL: exactSandboxDefault('X API v2 (token endpoint /2/oauth2/token, /2/users/me); real: https://api.x.com'),
  PINTEREST_CLIENT_ID: str('Pinterest app id (developers.pinterest.com/apps)', 'postbus-sandbox'),
  PINTEREST_CLIENT_SECRET: str('Pinterest app secret key', SANDBOX_CLIENT_SECRET),
  PINTEREST_AUTHORIZE_URL: exactSandboxDefault('Pinterest consent page; real: https://www.pinterest.com/oauth/'),
  PINTEREST_API_URL: exactSandboxDefault(
    'Pinterest API v5 (token endpoint /v5/oauth/token, /v5/user_account, /v5/boards); real: https://api.pinterest.com',
  ),
};

/** Where each platform URL points when it is left empty. */
const SANDBOX_PATHS = {
  INSTAGRAM_AUTHORIZE_URL: '/instagram/oauth/authorize',
  INSTAGRAM_TOKEN_URL: '/instagram/oauth/access_token',
  INSTAGRAM_GRAPH_URL: '/instagram',
  FACEBOOK_AUTHORIZE_URL: '/facebook',
  FACEBOOK_GRAPH_URL: '/facebook',
  THREADS_AUTHORIZE_URL: '/threads/oauth/authorize',
  THREADS_GRAPH_URL: '/threads',
  THREADS_API_URL: '/threads',
  TIKTOK_AUTHORIZE_URL: '/tiktok/v2/auth/authorize/',
  TIKTOK_API_URL: '/tiktok',
  YOUTUBE_AUTHORIZE_URL: '/google/o/oauth2/v2/auth',
  YOUTUBE_TOKEN_URL: '/google/token',
  YOUTUBE_API_URL: '/youtube/v3',
  BLUESKY_SERVICE_URL: '/bluesky',
  BLUESKY_PLC_URL: '/bluesky/plc',
  MASTODON_INSTANCE_URL: MASTODON_SANDBOX_PATH,
  LINKEDIN_AUTHORIZE_URL: '/linkedin/oauth/v2/authorization',
  LINKEDIN_TOKEN_URL: '/linkedin/oauth/v2/accessToken',
  LINKEDIN_API_URL: '/linkedin',
  X_AUTHORIZE_URL: '/x/i/oauth2/authorize',
  X_API_URL: '/x',
  PINTEREST_AUTHORIZE_URL: '/pinterest/oauth/',
  PINTEREST_API_URL: '/pinterest',
} as const;

const SECRETS = [
  'INSTAGRAM_CLIENT_SECRET',
  'FACEBOOK_CLIENT_SECRET',
  'THREADS_CLIENT_SECRET',
  'TIKTOK_CLIENT_SECRET',
  'LINKEDIN_CLIENT_SECRET',
  'YOUTUBE_CLIENT_SECRET',
  'X_CLIENT_SECRET',
  'PINTEREST_CLIENT_SECRET',
] as const;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(connectionsVars, env);
  const problems: string[] = [];
  problems.push(
    ...sealingKeyProblems(
      { key: 'TOKEN_ENCRYPTION_KEY', keyId: 'TOKEN_KEY_ID', previous: 'TOKEN_PREVIOUS_KEYS' },
      { key: config.TOKEN_ENCRYPTION_KEY, keyId: config.TOKEN_KEY_ID, previous: config.TOKEN_PREVIOUS_KEYS },
      { production: config.POSTBUS_ENV === 'production', developmentKey: DEV_TOKEN_KEY },
    ),
  );
  if (config.POSTBUS_ENV === 'production') {
    for (const name of SECRETS)
      if (config[name] === SANDBOX_CLIENT_SECRET) problems.push(`${name} must be set in production`);
  }
  const keyProblem = blueskyClientKeyProblem(config.BLUESKY_OAUTH_CLIENT_KEY);
  if (keyProblem) problems.push(keyProblem);
  if (problems.length) throw new ConfigError(problems);
  fillSandboxUrls(config, SANDBOX_PATHS);
  config.FACEBOOK_AUTHORIZE_URL = `${versionedBase(config.FACEBOOK_AUTHORIZE_URL, config.META_GRAPH_VERSION)}/dialog/oauth`;
  config.FACEBOOK_GRAPH_URL = versionedBase(config.FACEBOOK_GRAPH_URL, config.META_GRAPH_VERSION);
  config.THREADS_API_URL = versionedBase(config.THREADS_API_URL, config.THREADS_API_VERSION);
  return config;
}
export type ConnectionsConfig = ReturnType<typeof readConfig>;

function blueskyClientKeyProblem(raw: string): string | undefined {
  if (!raw) return undefined;
  try {
    clientPublicJwk(JSON.parse(raw) as JsonWebKey & { kid?: string });
    return undefined;
  } catch (err) {
    return `BLUESKY_OAUTH_CLIENT_KEY must be a private ES256 JWK with a "kid" (${(err as Error).message})`;
  }
}
