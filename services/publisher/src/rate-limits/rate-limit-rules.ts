/** "N posts per window" for one key: a platform (`instagram`) or a platform's post kind (`facebook.reels`). */
export interface RateWindow {
  limit: number;
  windowMs: number;
}

export type RateLimitRules = Record<string, RateWindow[]>;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses `instagram=100/24h,threads=250/24h,facebook.reels=30/24h,tiktok=6/1m+15/24h`:
 * comma-separated keys, each with one or more `count/duration` windows joined by `+`.
 */
export function parseRateLimitRules(raw: string): RateLimitRules {
  const rules: RateLimitRules = {};
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z]+(?:\.[a-z_]+)?)=(.+)$/.exec(part);
    if (!match) throw new Error(`"${part}" is not key=count/duration`);
    rules[match[1]] = match[2].split('+').map((w) => {
      const win = /^(\d+)\/(\d+)([smhd])$/.exec(w.trim());
      if (!win || Number(win[1]) < 1 || Number(win[2]) < 1)
        throw new Error(`"${w}" is not count/duration like 100/24h`);
      return { limit: Number(win[1]), windowMs: Number(win[2]) * UNITS[win[3]] };
    });
  }
  return rules;
}
