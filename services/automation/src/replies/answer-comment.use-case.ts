import { TransientError } from '@postbus/bus';
import type { CommentReceived, Profile } from '@postbus/contracts';
import type { AnswerPorts } from './answer.ports';
import { recordDecision } from './record-decision';
import { sendReply, type RetryLater } from './send-reply';

/**
 * Answers a comment once: the accounts that connected the platform account commented on are asked
 * in the order they connected it, and the first whose template answers takes the comment. What was
 * decided is recorded before anything is sent, and a redelivered comment continues from there.
 * Throws TransientError while the reply waits for a later attempt.
 */
export async function answerComment(
  ports: AnswerPorts,
  comment: CommentReceived,
  opts: { finalAttempt: boolean },
): Promise<void> {
  const profiles = await ports.findProfiles(comment.platform, comment.platformAccountId);
  if (!profiles.length) {
    ports.logger.info('comment on an account no profile connects; ignored', {
      platform: comment.platform,
      commentId: comment.commentId,
    });
    return;
  }
  for (const profile of profiles) {
    const { taken, later } = await answerForProfile(ports, comment, profile, opts.finalAttempt);
    if (later) throw new TransientError(later.retry, later.retryAfterMs);
    if (taken) return;
  }
}

async function answerForProfile(
  ports: AnswerPorts,
  comment: CommentReceived,
  profile: Profile,
  finalAttempt: boolean,
): Promise<{ taken: boolean; later?: RetryLater }> {
  // An account that never imported a template has not set up auto-reply: nothing is recorded.
  const template = await ports.templates.find(profile.accountId);
  if (!template) return { taken: false };
  const row =
    (await ports.activity.find(profile.accountId, comment.platform, comment.commentId)) ??
    (await recordDecision(ports, template.template, profile, comment));
  switch (row.state) {
    case 'sending':
      await ports.activity.markFailed(
        row.id,
        'outcome_unknown',
        'The reply was being sent when the work was interrupted; it is not sent again, so that the comment is never answered twice.',
      );
      return { taken: true };
    case 'queued':
    case 'retrying':
      return { taken: true, later: await sendReply(ports, row, profile, comment, finalAttempt) };
    case 'skipped':
      return { taken: false };
    default:
      return { taken: true };
  }
}
