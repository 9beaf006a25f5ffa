import {
  bool,
  ConfigError,
  int,
  keyIdVar,
  loadConfig,
  msList,
  oneOf,
  previousKeysVar,
  sealingKeyProblems,
  str,
  type VarSpec,
} from '@postbus/kit';
import { serviceVars } from '@postbus/service';

export const DEV_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 13).toString('base64');

/** 5 s, 30 s, 2 min, 10 min, 1 h, 5 h, 10 h, 10 h: nine attempts over about 26 hours. */
export const DEFAULT_RETRY_SCHEDULE_MS = [
  5_000, 30_000, 120_000, 600_000, 3_600_000, 18_000_000, 36_000_000, 36_000_000,
];

function hours(doc: string, def: number): VarSpec<number> {
  return {
    doc,
    default: def,
    parse(raw) {
      const n = Number(raw);
      if (!Number.isFinite(n) || n <= 0) throw new Error('expected a positive number of hours');
      return n;
    },
  };
}

export const webhooksVars = {
  ...serviceVars,
  POSTBUS_ENV: oneOf(
    'development | test | production; production refuses loopback targets',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  WEBHOOKS_ALLOW_LOOPBACK: bool('Let webhook URLs point at loopback addresses (tests and development only)', false),
  WEBHOOK_RETRY_SCHEDULE_MS: msList(
    'Comma-separated delays before each retry of a failed delivery; their count bounds the retries',
    DEFAULT_RETRY_SCHEDULE_MS,
  ),
  WEBHOOK_TIMEOUT_MS: int(
    'Longest wait for an endpoint to answer one delivery (ms); later is a failed attempt',
    10_000,
    1,
  ),
  WEBHOOK_DISABLE_AFTER_HOURS: hours(
    'An endpoint whose deliveries have all failed for this long is disabled (hours, decimals allowed)',
    72,
  ),
  WEBHOOK_POLL_MS: int('How often the delivery loop looks for due deliveries at the latest (ms)', 1000, 10),
  WEBHOOK_CONCURRENCY: int('Deliveries one webhooks process sends at once', 16, 1),
  WEBHOOK_SECRET_ENCRYPTION_KEY: str(
    'Base64 32-byte AES-256-GCM key that seals webhook signing secrets at rest (required in production)',
    DEV_WEBHOOK_SECRET_KEY,
  ),
  WEBHOOK_SECRET_KEY_ID: keyIdVar(
    'Id of WEBHOOK_SECRET_ENCRYPTION_KEY, stored beside each sealed secret for rotation (letters, digits, _ . -)',
    'dev',
  ),
  WEBHOOK_SECRET_PREVIOUS_KEYS: previousKeysVar(
    'Earlier webhook secret keys still accepted for reading during a rotation, "id:base64,id:base64"',
  ),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(webhooksVars, env);
  const production = config.POSTBUS_ENV === 'production';
  const problems = sealingKeyProblems(
    { key: 'WEBHOOK_SECRET_ENCRYPTION_KEY', keyId: 'WEBHOOK_SECRET_KEY_ID', previous: 'WEBHOOK_SECRET_PREVIOUS_KEYS' },
    {
      key: config.WEBHOOK_SECRET_ENCRYPTION_KEY,
      keyId: config.WEBHOOK_SECRET_KEY_ID,
      previous: config.WEBHOOK_SECRET_PREVIOUS_KEYS,
    },
    { production, developmentKey: DEV_WEBHOOK_SECRET_KEY },
  );
  if (production && config.WEBHOOKS_ALLOW_LOOPBACK)
    problems.push('WEBHOOKS_ALLOW_LOOPBACK must be false in production');
  if (problems.length) throw new ConfigError(problems);
  return config;
}
export type WebhooksConfig = ReturnType<typeof readConfig>;
