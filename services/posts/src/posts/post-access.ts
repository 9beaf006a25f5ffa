import { AppError, profileLimitOf, type Principal } from '@postbus/contracts';
import type { PostRepository, PostRow } from './post.repository';

/**
 * The caller's post, or post_not_found. Another account's post, and for a key limited to some
 * profiles another profile's post, answer exactly the same: to such a caller they do not exist,
 * to read or to change.
 */
export async function findOwnPost(posts: PostRepository, principal: Principal, id: string): Promise<PostRow> {
  const row = await posts.findVisible(principal.accountId, profileLimitOf(principal), id);
  if (!row) throw new AppError('post_not_found', `No post ${id}.`);
  return row;
}

/** 409 post_not_editable, saying what the post is and which posts the action applies to. */
export function notEditable(row: PostRow, rule: string): AppError {
  const state = row.dispatched_at && row.status === 'scheduled' ? 'already dispatched to the platform' : row.status;
  return new AppError('post_not_editable', `Post ${row.id} is ${state}. ${rule}`, {
    status: row.status,
    dispatched: row.dispatched_at !== null,
  });
}
