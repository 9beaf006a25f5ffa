import type { Platform } from '@postbus/contracts';

/**
 * Instagram and Threads refresh only a long-lived token that is at least 24 hours old and not
 * expired (developers.facebook.com/docs/instagram-platform/reference/refresh_access_token,
 * developers.facebook.com/docs/threads/get-started/long-lived-tokens). Asking earlier is refused,
 * so no refresh of theirs is attempted before.
 */
export const MIN_REFRESH_AGE_MS: Partial<Record<Platform, number>> = {
  instagram: 24 * 3_600_000,
  threads: 24 * 3_600_000,
};

/** The platforms with a minimum token age, and that age in seconds (for SQL). */
export const MIN_REFRESH_AGE_PLATFORMS = Object.keys(MIN_REFRESH_AGE_MS);
export const MIN_REFRESH_AGE_SECONDS = 24 * 3600;

/** The earliest moment the platform accepts a refresh of a token issued at `issuedAt`. */
export function refreshableFrom(platform: string, issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + (MIN_REFRESH_AGE_MS[platform as Platform] ?? 0));
}
