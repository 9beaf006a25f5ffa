import { bool, ConfigError, int, loadConfig, oneOf, str, url } from '@postbus/kit';
import { serviceVars } from '@postbus/service';

export const DEV_JWT_SECRET = Buffer.alloc(32, 11).toString('base64');

export const authVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf('development | test | production; production refuses development secrets and loopback client metadata URLs', ['development', 'test', 'production'] as const, 'development'),
  PUBLIC_BASE_URL: url('The {base_url} clients see: the OAuth issuer, and the agent endpoint {base_url}/api/mcp is the resource tokens are for', 'http://localhost:3000'),
  TRIAL_DAYS: int('Length of the free trial of a new account, in days', 14, 0),
  QUOTA_TRIAL_POSTS: int('Scheduled posts a trial account may create per calendar month', 100, 0),
  QUOTA_TRIAL_STORAGE_MB: int('Media storage of a trial account, in MB', 1024, 0),
  QUOTA_PRO_POSTS: int('Scheduled posts a paid account may create per calendar month', 10_000, 0),
  QUOTA_PRO_STORAGE_MB: int('Media storage of a paid account, in MB', 51_200, 0),
  AUTH_HTTP_PORT: int('Port of the sign-up, sign-in and settings pages (reached through the gateway)', 3001),
  HOST: str('Interface the pages listener binds (0.0.0.0 in containers, where the gateway is another host)', '127.0.0.1'),
  SESSION_TTL_HOURS: int('How long a sign-in to the settings pages lasts, in hours', 12, 1),
  OAUTH_CODE_TTL_SECONDS: int('Lifetime of an OAuth authorization code', 120, 1),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: int('Lifetime of an OAuth access token', 3600, 1),
  OAUTH_REFRESH_TOKEN_TTL_DAYS: int('Lifetime of an OAuth refresh token (each use rotates it)', 30, 1),
  OAUTH_CIMD_TIMEOUT_MS: int('Deadline of fetching a client ID metadata document', 5000, 1),
  OAUTH_CIMD_MAX_BYTES: int('Largest client ID metadata document accepted', 5 * 1024, 1),
  OAUTH_CIMD_CACHE_SECONDS: int('How long a fetched client ID metadata document is reused (shorter when its Cache-Control says so)', 300, 0),
  OAUTH_CIMD_ALLOW_LOOPBACK: bool('Accept http://127.0.0.1 / localhost client ID metadata URLs and fetch them over loopback (tests and development only)', false),
  AUTH_JWT_SECRET: str('Base64 key (at least 32 bytes) that signs the short-lived JWTs of the deprecated API-key exchanges (required in production)', DEV_JWT_SECRET),
  MCP_TOKEN_TTL_SECONDS: int('Lifetime of a JWT from the deprecated API-key exchanges', 900, 1),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(authVars, env);
  const problems: string[] = [];
  if (Buffer.from(config.AUTH_JWT_SECRET, 'base64').length < 32) problems.push('AUTH_JWT_SECRET must be at least 32 bytes, base64-encoded');
  if (config.POSTBUS_ENV === 'production') {
    if (config.AUTH_JWT_SECRET === DEV_JWT_SECRET) problems.push('AUTH_JWT_SECRET must be set in production');
    if (config.OAUTH_CIMD_ALLOW_LOOPBACK) problems.push('OAUTH_CIMD_ALLOW_LOOPBACK must be false in production');
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}
export type AuthConfig = ReturnType<typeof readConfig>;
