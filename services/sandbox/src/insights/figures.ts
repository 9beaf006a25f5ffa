import { createHash } from 'node:crypto';
import type { Platform } from '@postbus/contracts';
import type { PublishedItem } from '../published';
import type { SandboxState } from '../state';

/** Every figure the emulated platforms keep for a published item. */
export interface SandboxFigures {
  views: number;
  likes: number;
  comments: number;
  shares: number;
}

/** What an insights endpoint reports: null where the real platform reports no such figure. */
export type ReportedFigures = { [K in keyof SandboxFigures]: number | null };

/** Figures set through the control API, kept with the item itself so a reset forgets them. */
const overrides = new WeakMap<PublishedItem, Partial<SandboxFigures>>();

/** Deterministic figures of an item: the same id always reports the same numbers, unless a test set others. */
export function figuresOf(item: PublishedItem): SandboxFigures {
  const h = createHash('sha256').update(`${item.platform}:${item.id}`).digest();
  const views = 100 + (h.readUInt16BE(0) % 9900);
  const likes = Math.floor((views * (5 + (h[2] % 20))) / 100);
  const base = {
    views,
    likes,
    comments: Math.floor((likes * (h[3] % 40)) / 100),
    shares: Math.floor((likes * (h[4] % 25)) / 100),
  };
  return { ...base, ...overrides.get(item) };
}

/** YouTube videos and Facebook videos (ids without `page_`) report no shares; Bluesky and Mastodon report no views. */
export function reportedFigures(item: PublishedItem): ReportedFigures {
  const f = figuresOf(item);
  const noShares = item.platform === 'youtube' || (item.platform === 'facebook' && !item.id.includes('_'));
  const noViews = item.platform === 'bluesky' || item.platform === 'mastodon';
  return { ...f, views: noViews ? null : f.views, shares: noShares ? null : f.shares };
}

export function setFigures(item: PublishedItem, figures: Partial<SandboxFigures>): void {
  overrides.set(item, { ...overrides.get(item), ...figures });
}

/** A published item of this platform and user; undefined for another user's or an unknown id. */
export function findPublished(
  state: SandboxState,
  platform: Platform,
  id: string,
  userId?: string,
): PublishedItem | undefined {
  return state.published.list({ platform, userId }).find((item) => item.id === id);
}
