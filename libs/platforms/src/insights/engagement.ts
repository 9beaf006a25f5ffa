import { PlatformError } from '../errors';
import type { Platform } from '@postbus/contracts';

/** Engagement figures of one published item; null where the platform does not report that figure. */
export interface PlatformEngagement {
  views: number | null;
  likes: number | null;
  comments: number | null;
  shares: number | null;
}

/** A non-negative integer out of a platform answer (numbers or numeric strings), else null. */
export function countOf(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}

/** The platform no longer lists the item (deleted, made private, or never public): asking again will not help. */
export function itemNotListed(platform: Platform, id: string): PlatformError {
  return new PlatformError(
    `The ${platform} item ${id} is not listed any more (deleted or not public); no engagement figures can be read.`,
    { platform, transient: false, code: 'not_listed' },
  );
}
