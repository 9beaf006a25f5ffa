import { commonVars, int, loadConfig, str, type ConfigOf } from '@postbus/kit';

/** Every variable the sandbox reads; the only place that touches process.env. */
export const sandboxVars = {
  SANDBOX_PORT: int('Port the platform sandbox listens on', 4010),
  SANDBOX_HOST: str('Interface the sandbox binds; loopback unless you know why not', '127.0.0.1'),
  SANDBOX_PROCESSING_DELAY_MS: int('How long a media container stays IN_PROGRESS before it is FINISHED', 1000),
  SANDBOX_LATENCY_MS: int('Delay added to every emulated platform response', 0),
  SANDBOX_THREADS_QUOTA_TOTAL: int('Threads posts one user may publish per rolling 24 hours (Meta: 250)', 250, 1),
  LOG_LEVEL: commonVars.LOG_LEVEL,
};

export type SandboxConfig = ConfigOf<typeof sandboxVars>;

export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  return loadConfig(sandboxVars, env);
}
