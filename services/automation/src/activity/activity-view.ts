import type { ActivityOutcome, AutomationActivity } from '@postbus/contracts';
import type { ActivityRecord, ActivityState } from './activity.repository';

const OUTCOME: Record<ActivityState, ActivityOutcome> = {
  queued: 'pending',
  sending: 'pending',
  retrying: 'pending',
  replied: 'replied',
  skipped: 'skipped',
  failed: 'failed',
};

/** The states behind each outcome clients filter by. */
export const STATES_OF: Record<ActivityOutcome, ActivityState[]> = {
  pending: ['queued', 'sending', 'retrying'],
  replied: ['replied'],
  skipped: ['skipped'],
  failed: ['failed'],
};

export function activityView(a: ActivityRecord): AutomationActivity {
  return {
    id: a.id,
    profileId: a.profileId,
    platform: a.platform,
    commentId: a.commentId,
    postId: a.postId,
    commenter: { id: a.authorId, name: a.authorName },
    commentText: a.commentText,
    outcome: OUTCOME[a.state],
    reason: a.reason,
    detail: a.detail,
    ruleId: a.ruleId,
    matchedKeywords: a.matchedKeywords,
    action: a.action,
    replyText: a.replyText,
    replyId: a.replyId,
    receivedAt: a.receivedAt.toISOString(),
    repliedAt: a.repliedAt ? a.repliedAt.toISOString() : null,
  };
}
