import { envelope, writeOutbox } from '@postbus/bus';
import { Events, type CommentReceived } from '@postbus/contracts';
import type { PollPorts } from './poll-comments.use-case';

/** Pages of one profile read in one tick at most. */
export const PAGES_PER_PROFILE = 3;

export interface PolledProfile {
  profileId: string;
  accountId: string;
  platform: string;
}

/**
 * Stores the comments of one page not heard before and announces them (comment.received) with the
 * cursor moved past the page, in one transaction: a crash before it commits reads the page again,
 * and a comment heard twice is stored once. Answers how many were new.
 */
export async function storePolledComments(
  ports: Pick<PollPorts, 'db' | 'inbox' | 'cursors' | 'clock' | 'announced'>,
  who: PolledProfile,
  comments: CommentReceived[],
  cursor: string | undefined,
): Promise<number> {
  const fresh = await ports.db.transaction(async (m) => {
    const inserted = await ports.inbox.insertNew(m, comments);
    await writeOutbox(
      m,
      inserted.map((c) => envelope(Events.commentReceived, c)),
    );
    await ports.cursors.advance(m, who, cursor, ports.clock());
    return inserted;
  });
  if (fresh.length) ports.announced();
  return fresh.length;
}
