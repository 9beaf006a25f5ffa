import { AppError, principalMayUseProfile, type Principal } from '@postbus/contracts';
import type { PostRepository, PostRow } from './post.repository';

/** The account's post, or post_not_found (another account's post answers the same). */
export async function findOwnPost(posts: PostRepository, principal: Principal, id: string): Promise<PostRow> {
  const row = await posts.findForAccount(principal.accountId, id);
  if (!row) throw new AppError('post_not_found', `No post ${id}.`);
  return row;
}

/** Changing a post needs a key that may use its profile. */
export function assertMayChange(principal: Principal, row: PostRow): void {
  if (!principalMayUseProfile(principal, row.profile_id)) throw new AppError('profile_scope_denied', `This key may not use profile ${row.profile_id} of post ${row.id}.`);
}

/** 409 post_not_editable, saying what the post is and which posts the action applies to. */
export function notEditable(row: PostRow, rule: string): AppError {
  const state = row.dispatched_at && row.status === 'scheduled' ? 'already dispatched to the platform' : row.status;
  return new AppError('post_not_editable', `Post ${row.id} is ${state}. ${rule}`, { status: row.status, dispatched: row.dispatched_at !== null });
}
