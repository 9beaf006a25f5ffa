import {
  AppError,
  POSTS_PAGE_DEFAULT,
  principalMayUseProfile,
  profileLimitOf,
  type PostListFilter,
  type PostPage,
  type Principal,
} from '@postbus/contracts';
import { toPost } from './post.repository';
import type { PostsPorts } from './posts.ports';
import { decodeCursor, encodeCursor } from './post-cursor';
import { parseTimestamp } from './post-payload.rules';

/** A page of the account's posts on the profiles the caller may use, newest first, narrowed by every filter given. */
export async function listPosts(
  ports: Pick<PostsPorts, 'posts'>,
  principal: Principal,
  f: PostListFilter,
): Promise<PostPage> {
  if (f.profileId !== undefined && !principalMayUseProfile(principal, f.profileId))
    throw new AppError('profile_scope_denied', `This key may not use the profile ${f.profileId}.`);
  const limit = f.limit ?? POSTS_PAGE_DEFAULT;
  const rows = await ports.posts.list(principal.accountId, {
    statuses: f.status,
    platforms: f.platform,
    profileId: f.profileId,
    visibleProfiles: profileLimitOf(principal),
    externalId: f.externalId,
    category: f.category,
    from: timeFilter('from', f.from),
    to: timeFilter('to', f.to),
    afterId: f.cursor === undefined ? undefined : decodeCursor(f.cursor),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { data: page.map(toPost), nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1].id) : null };
}

function timeFilter(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = parseTimestamp(value);
  if (!at)
    throw new AppError(
      'validation_error',
      `${name} must be an ISO 8601 datetime with Z or an offset, e.g. 2026-12-01T09:30:00Z.`,
    );
  return at;
}
