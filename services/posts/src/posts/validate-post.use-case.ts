import {
  AppError,
  isPlatform,
  type MediaAsset,
  type Platform,
  type PolicyCheck,
  type Principal,
} from '@postbus/contracts';
import { findReplay } from './create-request.repository';
import { payloadHash } from './create-requests';
import { checkPostPayload, type Problem } from './post-payload.rules';
import type { ProfileRef } from './named-profiles';
import { profileHealthProblems } from './profile-health.rules';
import type { PostsPorts } from './posts.ports';
import { resolveReadyMedia } from './resolve-media';
import { resolveProfiles } from './resolve-profiles';
import { quotasOf } from './scheduling-quota';
import { tiktokPhotoProblems, type PostMediaItem } from './tiktok-photos.rules';
import { mediaProblems, mediaRuleOf } from './media-compat.rules';
import { renditionsNeeded } from '../renditions/normalize.rules';

/**
 * Every rule a create would apply, reported all at once and per platform; nothing is stored.
 * The checks that ask other services (profiles, media, quota, externalId) run when the payload
 * names what they need.
 */
export async function validatePost(ports: PostsPorts, principal: Principal, body: unknown): Promise<PolicyCheck> {
  const now = ports.clock();
  const problems: Problem[] = checkPostPayload(body, { now, requireScheduledTime: false });
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    const platforms = [...new Set(Array.isArray(b.platforms) ? b.platforms.filter(isPlatform) : [])] as Platform[];
    const profileIds =
      Array.isArray(b.profileIds) && b.profileIds.every((p) => typeof p === 'string') ? b.profileIds : undefined;

    let profiles: ProfileRef[] | undefined;
    if (platforms.length)
      profiles = await asProblem(problems, 'profileIds', () =>
        resolveProfiles(ports, principal, platforms, profileIds),
      );
    const asset =
      typeof b.mediaId === 'string' && b.mediaId
        ? await asProblem(problems, 'mediaId', () => resolveReadyMedia(ports, principal, b.mediaId as string))
        : undefined;
    const media = mediaItemsOf(b, asset);
    problems.push(...tiktokPhotoProblems(platforms, media, ports.tiktokPullPrefixes));
    // normalize: what a rendition would mend is no problem (the create asks for the rendition).
    const normalized = renditionsNeeded(platforms, media, b);
    problems.push(
      ...mediaProblems(
        platforms.filter((p) => !normalized.has(p)),
        media,
        { settings: b.platformMeta },
      ),
    );
    if (profiles) {
      const healths = await Promise.all(profiles.map((p) => ports.connectionHealth(principal, p.id)));
      for (const health of healths) problems.push(...profileHealthProblems(health, b));
      const [quotas, used] = await Promise.all([
        quotasOf(ports, principal),
        ports.posts.countCreatedThisMonth(ports.ds.manager, principal.accountId, now),
      ]);
      if (used + profiles.length > quotas.scheduledPostsPerMonth) {
        problems.push({
          code: 'quota_exceeded',
          message: `This post would create ${profiles.length} post(s); ${used} of the plan's ${quotas.scheduledPostsPerMonth} posts this month are used.`,
        });
      }
    }
    if (typeof b.externalId === 'string' && b.externalId)
      await asProblem(problems, 'externalId', () =>
        findReplay(ports.ds, principal.accountId, [['external', b.externalId as string]], payloadHash(body)),
      );
  }
  return {
    valid: problems.length === 0,
    problems: problems.map((p) => ({
      code: p.code,
      message: p.message,
      ...(p.platform && { platform: p.platform }),
      ...(p.field && { field: p.field }),
      ...mediaRuleOf(p),
    })),
  };
}

/** The post's media as create would store it: the mediaId's asset (when it resolved), then the links that are strings. */
function mediaItemsOf(b: Record<string, unknown>, asset: MediaAsset | undefined): PostMediaItem[] {
  const links = (Array.isArray(b.mediaUrls) ? b.mediaUrls : []).flatMap((url, i) =>
    typeof url === 'string' ? [{ field: `mediaUrls[${i}]`, url }] : [],
  );
  return asset
    ? [
        {
          field: 'mediaId',
          url: asset.url,
          contentType: asset.contentType,
          sizeBytes: asset.sizeBytes,
          probe: asset.probe,
        },
        ...links,
      ]
    : links;
}

/** Runs a check; a refusal (4xx) becomes a problem, anything else (a service down) fails the call. */
async function asProblem<T>(problems: Problem[], field: string, check: () => Promise<T>): Promise<T | undefined> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      problems.push({ code: err.code, message: err.message, field });
      return undefined;
    }
    throw err;
  }
}
