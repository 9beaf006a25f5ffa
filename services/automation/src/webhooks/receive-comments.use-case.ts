import { envelope, writeOutbox } from '@postbus/bus';
import { Events, type CommentReceived } from '@postbus/contracts';
import type { Database } from '@postbus/kit';
import type { CommentInboxRepository } from './comment-inbox.repository';

export interface ReceivePorts {
  db: Database;
  inbox: CommentInboxRepository;
  /** Called after a commit that announced comments (kicks the outbox relay). */
  announced(): void;
}

/**
 * Stores the comments of a verified webhook not heard before and announces each (comment.received)
 * in the same transaction; the answer waits for nothing else, so the platform hears 200 quickly.
 */
export async function receiveComments(
  ports: ReceivePorts,
  comments: CommentReceived[],
): Promise<{ comments: number; new: number }> {
  const fresh = await ports.db.transaction(async (m) => {
    const stored = await ports.inbox.insertNew(m, comments);
    await writeOutbox(
      m,
      stored.map((c) => envelope(Events.commentReceived, c)),
    );
    return stored;
  });
  if (fresh.length) ports.announced();
  return { comments: comments.length, new: fresh.length };
}
