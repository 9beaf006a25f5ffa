import { ConfigError, int, loadConfig, oneOf, str, url, type VarSpec } from '@postbus/kit';
import { serviceVars } from '@postbus/service';

export const DEV_TOKEN_KEY = Buffer.alloc(32, 7).toString('base64');
const SANDBOX_CLIENT_SECRET = 'sandbox-secret';

/** An optional URL: empty means "the sandbox path named in its documentation". */
function sandboxDefault(doc: string): VarSpec<string> {
  return {
    doc,
    default: '',
    parse(raw) {
      new URL(raw); // throws on a malformed URL
      return raw;
    },
  };
}

/** `id:base64,id:base64` → { id: base64 }. */
function keyList(doc: string): VarSpec<Record<string, string>> {
  return {
    doc,
    default: {},
    parse(raw) {
      const keys: Record<string, string> = {};
      for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
        const at = entry.indexOf(':');
        if (at <= 0) throw new Error('expected id:base64 entries separated by commas');
        const id = entry.slice(0, at);
        const key = entry.slice(at + 1);
        if (Buffer.from(key, 'base64').length !== 32) throw new Error(`key ${id} is not 32 bytes of base64`);
        keys[id] = key;
      }
      return keys;
    },
  };
}

export const connectionsVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf('development | test | production; production refuses development secrets', ['development', 'test', 'production'] as const, 'development'),
  TOKEN_ENCRYPTION_KEY: str('Base64 32-byte AES-256-GCM key that encrypts platform tokens at rest', DEV_TOKEN_KEY),
  TOKEN_KEY_ID: str('Id of TOKEN_ENCRYPTION_KEY, stored beside each token for rotation', 'dev'),
  TOKEN_PREVIOUS_KEYS: keyList('Earlier keys still accepted for reading during a rotation, "id:base64,id:base64"'),
  CONNECTIONS_HTTP_PORT: int('Port of the connect handoff pages and platform OAuth callbacks (behind the gateway)', 3004),
  CONNECTIONS_HTTP_HOST: str('Interface that listener binds', '127.0.0.1'),
  PUBLIC_BASE_URL: url('The {base_url} clients see; connect links and OAuth redirect URIs are under it', 'http://localhost:3000'),
  CONNECT_LINK_TTL_SECONDS: int('Lifetime of a connection request link', 900, 1),
  TOKEN_REFRESH_INTERVAL_MS: int('How often tokens close to expiry are looked for and refreshed', 60_000, 1),
  TOKEN_REFRESH_AHEAD_SECONDS: int('A token is refreshed once it has this little left (or a fifth of its lifetime, whichever is longer)', 900),
  TOKEN_REFRESH_DEDUP_MS: int('A refresh asked for this soon after the last one answers the current token (several publishers may hit one expired token at once)', 10_000),
  PLATFORM_HTTP_TIMEOUT_MS: int('Deadline of each OAuth or profile call to a platform', 10_000, 1),
  SANDBOX_URL: url('The platform sandbox; every platform URL left empty is a path under it', 'http://127.0.0.1:4010'),
  INSTAGRAM_CLIENT_ID: str('Instagram app id (Instagram Login)', 'postbus-sandbox'),
  INSTAGRAM_CLIENT_SECRET: str('Instagram app secret', SANDBOX_CLIENT_SECRET),
  INSTAGRAM_AUTHORIZE_URL: sandboxDefault('Instagram consent page; real: https://www.instagram.com/oauth/authorize'),
  INSTAGRAM_TOKEN_URL: sandboxDefault('Instagram code exchange; real: https://api.instagram.com/oauth/access_token'),
  INSTAGRAM_GRAPH_URL: sandboxDefault('Instagram Graph host (long-lived exchange, refresh, /me); real: https://graph.instagram.com'),
  FACEBOOK_CLIENT_ID: str('Facebook app id', 'postbus-sandbox'),
  FACEBOOK_CLIENT_SECRET: str('Facebook app secret', SANDBOX_CLIENT_SECRET),
  FACEBOOK_AUTHORIZE_URL: sandboxDefault('Facebook Login dialog; real: https://www.facebook.com/v21.0/dialog/oauth'),
  FACEBOOK_GRAPH_URL: sandboxDefault('Facebook Graph API with its version; real: https://graph.facebook.com/v21.0'),
  THREADS_CLIENT_ID: str('Threads app id', 'postbus-sandbox'),
  THREADS_CLIENT_SECRET: str('Threads app secret', SANDBOX_CLIENT_SECRET),
  THREADS_AUTHORIZE_URL: sandboxDefault('Threads consent page; real: https://threads.net/oauth/authorize'),
  THREADS_GRAPH_URL: sandboxDefault('Threads Graph host (code exchange, long-lived exchange, refresh); real: https://graph.threads.net'),
  THREADS_API_URL: sandboxDefault('Threads Graph API base URL (/me); real: https://graph.threads.net/v1.0'),
  TIKTOK_CLIENT_KEY: str('TikTok client key', 'postbus-sandbox'),
  TIKTOK_CLIENT_SECRET: str('TikTok client secret', SANDBOX_CLIENT_SECRET),
  TIKTOK_AUTHORIZE_URL: sandboxDefault('TikTok consent page; real: https://www.tiktok.com/v2/auth/authorize/'),
  TIKTOK_API_URL: sandboxDefault('TikTok Open API (token, user info, creator info); real: https://open.tiktokapis.com'),
  YOUTUBE_CLIENT_ID: str('Google OAuth client id', 'postbus-sandbox'),
  YOUTUBE_CLIENT_SECRET: str('Google OAuth client secret', SANDBOX_CLIENT_SECRET),
  YOUTUBE_AUTHORIZE_URL: sandboxDefault('Google consent page; real: https://accounts.google.com/o/oauth2/v2/auth'),
  YOUTUBE_TOKEN_URL: sandboxDefault('Google token endpoint; real: https://oauth2.googleapis.com/token'),
  YOUTUBE_API_URL: sandboxDefault('YouTube Data API; real: https://www.googleapis.com/youtube/v3'),
};

/** Where each platform URL points when it is left empty. */
const SANDBOX_PATHS = {
  INSTAGRAM_AUTHORIZE_URL: '/instagram/oauth/authorize',
  INSTAGRAM_TOKEN_URL: '/instagram/oauth/access_token',
  INSTAGRAM_GRAPH_URL: '/instagram',
  FACEBOOK_AUTHORIZE_URL: '/facebook/dialog/oauth',
  FACEBOOK_GRAPH_URL: '/facebook',
  THREADS_AUTHORIZE_URL: '/threads/oauth/authorize',
  THREADS_GRAPH_URL: '/threads',
  THREADS_API_URL: '/threads/v1.0',
  TIKTOK_AUTHORIZE_URL: '/tiktok/v2/auth/authorize/',
  TIKTOK_API_URL: '/tiktok',
  YOUTUBE_AUTHORIZE_URL: '/google/o/oauth2/v2/auth',
  YOUTUBE_TOKEN_URL: '/google/token',
  YOUTUBE_API_URL: '/youtube/v3',
} as const;

const SECRETS = ['INSTAGRAM_CLIENT_SECRET', 'FACEBOOK_CLIENT_SECRET', 'THREADS_CLIENT_SECRET', 'TIKTOK_CLIENT_SECRET', 'YOUTUBE_CLIENT_SECRET'] as const;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(connectionsVars, env);
  const problems: string[] = [];
  if (Buffer.from(config.TOKEN_ENCRYPTION_KEY, 'base64').length !== 32) problems.push('TOKEN_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
  if (config.TOKEN_PREVIOUS_KEYS[config.TOKEN_KEY_ID]) problems.push('TOKEN_PREVIOUS_KEYS must not repeat TOKEN_KEY_ID');
  if (config.POSTBUS_ENV === 'production') {
    if (config.TOKEN_ENCRYPTION_KEY === DEV_TOKEN_KEY) problems.push('TOKEN_ENCRYPTION_KEY must be set in production');
    for (const name of SECRETS) if (config[name] === SANDBOX_CLIENT_SECRET) problems.push(`${name} must be set in production`);
  }
  if (problems.length) throw new ConfigError(problems);
  for (const [name, path] of Object.entries(SANDBOX_PATHS) as [keyof typeof SANDBOX_PATHS, string][]) config[name] ||= `${config.SANDBOX_URL}${path}`;
  return config;
}
export type ConnectionsConfig = ReturnType<typeof readConfig>;
