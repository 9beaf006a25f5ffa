import { PRIVATE_REPLY_PLATFORMS, type ActivityReason, type AutomationRule } from '@postbus/contracts';
import type { StoredTemplate } from '../templates/stored-template';
import { matchTrigger } from './keyword-match';
import { renderReply } from './reply-text';

export interface CommentFacts {
  platform: string;
  text: string;
  authorId: string | null;
  authorName: string | null;
}

export interface ProfileFacts {
  id: string;
  platform: string;
  /** The platform's id of the account (Instagram account, Facebook Page). */
  platformUserId: string;
  handle: string;
}

export type Decision =
  | {
      kind: 'skip';
      reason: Extract<ActivityReason, 'own_comment' | 'template_disabled' | 'no_matching_rule'>;
      detail: string;
    }
  | { kind: 'answer'; rule: AutomationRule; matchedKeywords: string[]; replyText: string; detail: string };

/** Platforms whose commenters are named by a unique username (Facebook names are not unique). */
const UNIQUE_USERNAMES = ['instagram', 'threads'];

/** The account wrote it: its own id, or (where usernames are unique) its own username. */
export function isOwnComment(profile: ProfileFacts, comment: CommentFacts): boolean {
  if (comment.authorId && comment.authorId === profile.platformUserId) return true;
  return (
    UNIQUE_USERNAMES.includes(profile.platform) &&
    !!comment.authorName &&
    comment.authorName.toLowerCase() === profile.handle.toLowerCase()
  );
}

/** Whether a rule covers comments on this profile (its profiles, its platforms, and an action the platform allows). */
export function ruleCovers(rule: AutomationRule, profile: ProfileFacts): boolean {
  if (!rule.enabled) return false;
  if (rule.profileIds && !rule.profileIds.includes(profile.id)) return false;
  if (rule.platforms && !rule.platforms.includes(profile.platform)) return false;
  return (
    rule.action.type !== 'private_reply' || (PRIVATE_REPLY_PLATFORMS as readonly string[]).includes(profile.platform)
  );
}

/** What the template says about a comment on a profile: the first enabled rule that covers it and whose keywords match, or why none. */
export function chooseRule(template: StoredTemplate, profile: ProfileFacts, comment: CommentFacts): Decision {
  if (isOwnComment(profile, comment))
    return {
      kind: 'skip',
      reason: 'own_comment',
      detail: 'The comment was written by the account itself; auto-reply never answers its own comments.',
    };
  if (!template.enabled)
    return { kind: 'skip', reason: 'template_disabled', detail: 'The auto-reply template is disabled.' };
  for (const rule of template.rules) {
    if (!ruleCovers(rule, profile)) continue;
    const matched = matchTrigger(comment.text, rule.trigger);
    if (!matched) continue;
    const keywords = matched.map((k) => `"${k}"`).join(', ');
    return {
      kind: 'answer',
      rule,
      matchedKeywords: matched,
      replyText: renderReply(rule.action.text, { name: comment.authorName }),
      detail: `Rule "${rule.id}" matched ${keywords} (${rule.trigger.match}).`,
    };
  }
  return { kind: 'skip', reason: 'no_matching_rule', detail: 'No enabled rule for this profile matched the comment.' };
}
