import { AppError, type Platform } from '@postbus/contracts';
import { checkMediaRules, type MediaRuleBreak, type TargetSettings } from '@postbus/platforms';
import type { Problem } from './post-payload.rules';
import type { PostMediaItem } from './tiktok-photos.rules';

/** A media_incompatible problem: the platform rule broken, what the media has and what the platform takes. */
export interface MediaProblem extends Problem {
  rule: string;
  measured: MediaRuleBreak['measured'];
  limit: MediaRuleBreak['limit'];
}

export interface MediaCompatOptions {
  /** The post's platformMeta: Instagram `story`, Facebook `reel` pick the rules. */
  settings?: unknown;
  /** TikTok creators' longest video (creator_info), by platform profile; absent when not asked. */
  tiktokMaxDurationSec?: number | null;
}

/**
 * Every platform rule (@postbus/platforms MEDIA_RULES) a post's stored media breaks, for each
 * of its platforms. Only a mediaId carries figures (ffprobe read it when stored); links are
 * fetched later and judged by the platform. A TikTok photo's format is left to the TikTok photo
 * rules, which answer it as unsupported_photo_format.
 */
export function mediaProblems(
  platforms: readonly Platform[],
  media: readonly PostMediaItem[],
  opts: MediaCompatOptions = {},
): MediaProblem[] {
  const problems: MediaProblem[] = [];
  const settings = (typeof opts.settings === 'object' && opts.settings !== null ? opts.settings : {}) as TargetSettings;
  for (const item of media) {
    if (!item.contentType || item.sizeBytes === undefined) continue;
    const facts = { contentType: item.contentType, sizeBytes: item.sizeBytes, probe: item.probe ?? null };
    for (const platform of new Set(platforms)) {
      const breaks = checkMediaRules(platform, facts, {
        items: media.length,
        settings,
        creatorMaxDurationSec: opts.tiktokMaxDurationSec,
      });
      for (const b of breaks) {
        if (b.target === 'tiktok.photo' && b.rule === 'content_type') continue;
        problems.push({
          code: 'media_incompatible',
          message: `${item.field}: ${b.message}`,
          platform,
          field: item.field,
          rule: b.rule,
          measured: b.measured,
          limit: b.limit,
        });
      }
    }
  }
  return problems;
}

/** Refuses with the first problem: `details` names its platform, rule, measured and limit, and lists every problem when there are several. */
export function assertMediaCompatible(
  platforms: readonly Platform[],
  media: readonly PostMediaItem[],
  opts: MediaCompatOptions = {},
): void {
  const problems = mediaProblems(platforms, media, opts);
  if (!problems.length) return;
  const [first] = problems;
  throw new AppError('media_incompatible', first.message, {
    platform: first.platform,
    rule: first.rule,
    measured: first.measured,
    limit: first.limit,
    field: first.field,
    ...(problems.length > 1 && {
      problems: problems.map(({ message, platform, field, rule, measured, limit }) => ({
        message,
        platform,
        field,
        rule,
        measured,
        limit,
      })),
    }),
  });
}

/** The rule, measured and limit of a media_incompatible problem, for the validate answer; nothing for other problems. */
export function mediaRuleOf(
  problem: Problem,
): Pick<MediaProblem, 'rule' | 'measured' | 'limit'> | Record<string, never> {
  return 'rule' in problem
    ? {
        rule: (problem as MediaProblem).rule,
        measured: (problem as MediaProblem).measured,
        limit: (problem as MediaProblem).limit,
      }
    : {};
}
