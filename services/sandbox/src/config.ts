import { bool, commonVars, int, loadConfig, str, type ConfigOf, type VarSpec } from '@postbus/kit';
import { DEFAULT_VERIFIED_URL_PREFIXES } from './tiktok/store';

/** Every variable the sandbox reads; the only place that touches process.env. */
export const sandboxVars = {
  SANDBOX_PORT: int('Port the platform sandbox listens on', 4010),
  SANDBOX_HOST: str('Interface the sandbox binds; loopback unless you know why not', '127.0.0.1'),
  SANDBOX_PROCESSING_DELAY_MS: int('How long a media container stays IN_PROGRESS before it is FINISHED', 1000),
  SANDBOX_LATENCY_MS: int('Delay added to every emulated platform response', 0),
  SANDBOX_TIKTOK_AUDITED: bool(
    'Act as a TikTok client that passed the content-posting audit; false (default): SELF_ONLY posts to private accounts only, from SANDBOX_TIKTOK_UNAUDITED_USERS_PER_DAY users a day',
    false,
  ),
  SANDBOX_TIKTOK_UNAUDITED_USERS_PER_DAY: int(
    'Distinct users an unaudited TikTok client may post for in 24 hours (TikTok: 5)',
    5,
    1,
  ),
  SANDBOX_TIKTOK_VERIFIED_URL_PREFIXES: {
    doc: "Comma-separated URL prefixes the emulated TikTok app has verified for PULL_FROM_URL (videos and photos); * accepts any URL. Default: Postbus's development /files/ on localhost:3000",
    default: DEFAULT_VERIFIED_URL_PREFIXES,
    parse: (raw: string) =>
      raw.trim() === '*'
        ? null
        : raw
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
  } as VarSpec<string[] | null>,
  SANDBOX_FFPROBE_PATH: str(
    'ffprobe binary the emulators read stored media with, to refuse what the platform refuses (Instagram reels); empty turns the reading off',
    '/usr/bin/ffprobe',
  ),
  SANDBOX_BLUESKY_LOOPBACK_CLIENT_METADATA: bool(
    'Let the Bluesky OAuth server accept client metadata documents (and web redirect URIs) on http loopback addresses, as a Postbus run on one machine publishes them; false (default): https on public hosts only, as Bluesky requires',
    false,
  ),
  SANDBOX_THREADS_QUOTA_TOTAL: int('Threads posts one user may publish per rolling 24 hours (Meta: 250)', 250, 1),
  LOG_LEVEL: commonVars.LOG_LEVEL,
};

export type SandboxConfig = ConfigOf<typeof sandboxVars>;

export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  return loadConfig(sandboxVars, env);
}
