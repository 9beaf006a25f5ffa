import type { Platform } from '@postbus/contracts';
import type { RequestHandler } from 'express';

/** Timing and throttling of one emulated platform; unset members fall back to the sandbox-wide settings. */
export interface PlatformSettings {
  /** Delay added to each of the platform's responses. */
  latencyMs?: number;
  /** How long uploaded or fetched media stays "processing". */
  processingDelayMs?: number;
  /** Requests one access token may make per rolling minute before the platform's throttling answer; unset = no limit. */
  throttlePerMinute?: number;
}

export interface EffectiveSettings {
  latencyMs: number;
  processingDelayMs: number;
  throttlePerMinute: number | null;
}

/** Per-platform overrides plus the sliding windows of throttlePerMinute. */
export class PlatformSettingsStore {
  private overrides: Partial<Record<Platform, PlatformSettings>> = {};
  private readonly calls = new Map<string, number[]>();

  set(platform: Platform, settings: PlatformSettings): PlatformSettings {
    this.overrides[platform] = { ...this.overrides[platform], ...settings };
    return { ...this.overrides[platform] };
  }

  get(platform: Platform): PlatformSettings {
    return { ...this.overrides[platform] };
  }

  resolve(platform: Platform, base: { latencyMs: number; processingDelayMs: number }): EffectiveSettings {
    const own = this.overrides[platform] ?? {};
    return {
      latencyMs: own.latencyMs ?? base.latencyMs,
      processingDelayMs: own.processingDelayMs ?? base.processingDelayMs,
      throttlePerMinute: own.throttlePerMinute ?? null,
    };
  }

  /** Counts a call of `key` (platform + token) and answers whether it goes over `perMinute`. */
  overLimit(key: string, perMinute: number, now: number): boolean {
    const recent = (this.calls.get(key) ?? []).filter((t) => t > now - 60_000);
    const over = recent.length >= perMinute;
    if (!over) recent.push(now);
    this.calls.set(key, recent);
    return over;
  }

  clear(): void {
    this.overrides = {};
    this.calls.clear();
  }
}

/** Waits the platform's latency before the route runs. */
export function platformLatency(latencyMs: () => number): RequestHandler {
  return async (_req, _res, next) => {
    const ms = latencyMs();
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    next();
  };
}
