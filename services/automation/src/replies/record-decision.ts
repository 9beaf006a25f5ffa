import type { CommentReceived, Profile } from '@postbus/contracts';
import type { ActivityRecord, NewActivity } from '../activity/activity.repository';
import { chooseRule } from '../matching/choose-rule';
import type { StoredTemplate } from '../templates/stored-template';
import type { AnswerPorts } from './answer.ports';

const HOUR_MS = 3_600_000;

/**
 * Decides what to do with a comment on a profile and records it once: skipped (and why), or
 * queued for a reply when the matching rule is still under its per-post and per-hour caps.
 * Counting and recording happen under the rule's lock, so concurrent comments cannot both take the last slot.
 */
export async function recordDecision(
  ports: AnswerPorts,
  template: StoredTemplate,
  profile: Profile,
  comment: CommentReceived,
): Promise<ActivityRecord> {
  const facts = {
    id: profile.id,
    platform: profile.platform,
    platformUserId: comment.platformAccountId,
    handle: profile.handle,
  };
  const decision = chooseRule(template, facts, comment);
  const now = ports.clock();
  const base: Omit<NewActivity, 'state' | 'reason' | 'detail'> = {
    accountId: profile.accountId,
    profileId: profile.id,
    platform: comment.platform,
    commentId: comment.commentId,
    postId: comment.postId,
    authorId: comment.authorId,
    authorName: comment.authorName,
    commentText: comment.text,
    ruleId: null,
    matchedKeywords: [],
    action: null,
    replyText: null,
    receivedAt: new Date(comment.receivedAt),
    createdAt: now,
  };
  if (decision.kind === 'skip')
    return ports.db.transaction((m) =>
      ports.activity.insert(m, { ...base, state: 'skipped', reason: decision.reason, detail: decision.detail }),
    );

  const { rule } = decision;
  const matched = { ...base, ruleId: rule.id, matchedKeywords: decision.matchedKeywords, action: rule.action.type };
  return ports.db.transaction(async (m) => {
    await ports.activity.lockCaps(m, profile.accountId, rule.id, profile.id);
    const counts = await ports.activity.countForCaps(m, {
      accountId: profile.accountId,
      ruleId: rule.id,
      profileId: profile.id,
      postId: comment.postId,
      since: new Date(now.getTime() - HOUR_MS),
    });
    if (comment.postId && counts.onPost >= rule.caps.perPost) {
      return ports.activity.insert(m, {
        ...matched,
        state: 'skipped',
        reason: 'per_post_cap',
        detail: `${decision.detail} Not answered: the rule already answered ${counts.onPost} comment${counts.onPost === 1 ? '' : 's'} on this post (caps.perPost ${rule.caps.perPost}).`,
      });
    }
    if (counts.since >= rule.caps.perHour) {
      return ports.activity.insert(m, {
        ...matched,
        state: 'skipped',
        reason: 'per_hour_cap',
        detail: `${decision.detail} Not answered: the rule already answered ${counts.since} comment${counts.since === 1 ? '' : 's'} on this profile in the last hour (caps.perHour ${rule.caps.perHour}).`,
      });
    }
    return ports.activity.insert(m, {
      ...matched,
      state: 'queued',
      reason: 'matched',
      detail: decision.detail,
      replyText: decision.replyText,
    });
  });
}
