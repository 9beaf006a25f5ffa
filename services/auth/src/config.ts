import { bool, ConfigError, int, loadConfig, oneOf, str, url, type VarSpec } from '@postbus/kit';
import { serviceVars } from '@postbus/service';
import { OWASP_SCRYPT } from './accounts/password';

export const DEV_JWT_SECRET = Buffer.alloc(32, 11).toString('base64');

/** scrypt's N: a power of two; production takes the OWASP figure or more. */
function scryptN(doc: string, def: number): VarSpec<number> {
  return {
    doc,
    default: def,
    parse(raw) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 2 ** 10 || (n & (n - 1)) !== 0)
        throw new Error('expected a power of two, 1024 or more');
      return n;
    },
  };
}

export const authVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf(
    'development | test | production; production refuses development secrets and loopback client metadata URLs',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  PUBLIC_BASE_URL: url(
    'The {base_url} clients see: the OAuth issuer, and the agent endpoint {base_url}/api/mcp is the resource tokens are for',
    'http://localhost:3000',
  ),
  TRIAL_DAYS: int('Length of the free trial of a new account, in days', 14, 0),
  QUOTA_TRIAL_POSTS: int('Scheduled posts a trial account may create per calendar month', 100, 0),
  QUOTA_TRIAL_STORAGE_MB: int('Media storage of a trial account, in MB', 1024, 0),
  QUOTA_PRO_POSTS: int('Scheduled posts a paid account may create per calendar month', 10_000, 0),
  QUOTA_PRO_STORAGE_MB: int('Media storage of a paid account, in MB', 51_200, 0),
  AUTH_HTTP_PORT: int('Port of the sign-up, sign-in and settings pages (reached through the gateway)', 3001),
  HOST: str(
    'Interface the pages listener binds (0.0.0.0 in containers, where the gateway is another host)',
    '127.0.0.1',
  ),
  SESSION_TTL_HOURS: int('How long a sign-in to the settings pages lasts, in hours', 12, 1),
  PASSWORD_SCRYPT_N: scryptN(
    `scrypt cost of password hashes (N, with r=8, p=1; 128·N·8 bytes of memory each); at least ${OWASP_SCRYPT.N} (OWASP) in production. Hashes of another cost are made again at the next sign-in`,
    OWASP_SCRYPT.N,
  ),
  SIGN_IN_FREE_FAILURES: int(
    'Failed sign-ins in a row one email may have before it must wait; from then on it is refused (429) without its password being checked (0 turns the backoff off)',
    5,
    0,
  ),
  SIGN_IN_FIRST_LOCK_SECONDS: int(
    'The first wait of an email past its free failures; each further failure doubles it',
    30,
    1,
  ),
  SIGN_IN_MAX_LOCK_SECONDS: int(
    'The longest wait of an email after failed sign-ins (a right password ends the count)',
    900,
    1,
  ),
  OAUTH_CODE_TTL_SECONDS: int('Lifetime of an OAuth authorization code', 120, 1),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: int('Lifetime of an OAuth access token', 3600, 1),
  OAUTH_REFRESH_TOKEN_TTL_DAYS: int('Lifetime of an OAuth refresh token (each use rotates it)', 30, 1),
  OAUTH_GRANT_MAX_DAYS: int(
    'Longest life of an OAuth grant from the consent, however often it is refreshed: past it its tokens are refused (invalid_grant) and the application must ask again',
    90,
    1,
  ),
  OAUTH_CIMD_TIMEOUT_MS: int('Deadline of fetching a client ID metadata document', 5000, 1),
  OAUTH_CIMD_MAX_BYTES: int('Largest client ID metadata document accepted', 5 * 1024, 1),
  OAUTH_CIMD_CACHE_SECONDS: int(
    'How long a fetched client ID metadata document is reused (shorter when its Cache-Control says so)',
    300,
    0,
  ),
  OAUTH_CIMD_ALLOW_LOOPBACK: bool(
    'Accept http://127.0.0.1 / localhost client ID metadata URLs and fetch them over loopback (tests and development only)',
    false,
  ),
  AUTH_JWT_SECRET: str(
    'Base64 key (at least 32 bytes) that signs the short-lived JWTs of the deprecated API-key exchanges (required in production)',
    DEV_JWT_SECRET,
  ),
  MCP_TOKEN_TTL_SECONDS: int('Lifetime of a JWT from the deprecated API-key exchanges', 900, 1),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(authVars, env);
  const problems: string[] = [];
  if (Buffer.from(config.AUTH_JWT_SECRET, 'base64').length < 32)
    problems.push('AUTH_JWT_SECRET must be at least 32 bytes, base64-encoded');
  if (config.POSTBUS_ENV === 'production') {
    if (config.AUTH_JWT_SECRET === DEV_JWT_SECRET) problems.push('AUTH_JWT_SECRET must be set in production');
    if (config.OAUTH_CIMD_ALLOW_LOOPBACK) problems.push('OAUTH_CIMD_ALLOW_LOOPBACK must be false in production');
    if (config.PASSWORD_SCRYPT_N < OWASP_SCRYPT.N)
      problems.push(`PASSWORD_SCRYPT_N must be at least ${OWASP_SCRYPT.N} in production`);
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}
export type AuthConfig = ReturnType<typeof readConfig>;
