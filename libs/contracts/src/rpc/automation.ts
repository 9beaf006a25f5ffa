import { Type, type Static } from '@sinclair/typebox';
import { PLATFORMS } from '../platforms';
import { defineRpc } from './define';

/** The template format this server reads and writes. */
export const AUTOMATION_TEMPLATE_VERSION = 1;

/**
 * Platforms whose comments reach Postbus: through webhooks (Meta's for Instagram and Facebook Pages,
 * Threads' `replies`) or read by polling (Mastodon mentions, Bluesky reply notifications); TikTok and
 * YouTube offer neither, so they cannot be a rule's source.
 */
export const COMMENT_SOURCE_PLATFORMS = ['instagram', 'facebook', 'threads', 'mastodon', 'bluesky'] as const;
/** Platforms that let a business answer a comment with a private message. */
export const PRIVATE_REPLY_PLATFORMS = ['instagram', 'facebook'] as const;

export const KEYWORD_MATCHES = ['any', 'all', 'exact'] as const;
export const REPLY_ACTIONS = ['reply', 'private_reply'] as const;
export type ReplyAction = (typeof REPLY_ACTIONS)[number];

export const AUTOMATION_LIMITS = {
  rules: 100,
  keywordsPerRule: 50,
  keywordLength: 100,
  replyText: 1000,
  perPostMax: 1000,
  perHourMax: 10_000,
} as const;
/** Caps a rule gets when it names none. */
export const DEFAULT_RULE_CAPS = { perPost: 25, perHour: 60 } as const;

/** `{name}` in a reply text becomes the commenter's name (their username on Instagram and Threads). */
export const REPLY_PLACEHOLDERS = ['name'] as const;

const Timestamp = Type.String({ format: 'date-time' });

/** A string from a fixed list, as a plain JSON Schema `enum` (a validation error names the allowed values). */
function stringEnum<T extends string>(values: readonly T[], opts: { description?: string } = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts });
}
const PlatformEnum = stringEnum(PLATFORMS);

const TriggerSchema = Type.Object(
  {
    match: stringEnum(KEYWORD_MATCHES, {
      description:
        'any: one of the keywords; all: every keyword; exact: the whole comment is one of them. Case-insensitive, whole words or phrases.',
    }),
    keywords: Type.Array(Type.String({ minLength: 1, maxLength: AUTOMATION_LIMITS.keywordLength }), {
      minItems: 1,
      maxItems: AUTOMATION_LIMITS.keywordsPerRule,
    }),
  },
  { additionalProperties: false },
);

const ActionSchema = Type.Object(
  {
    type: stringEnum(REPLY_ACTIONS, {
      description:
        'reply: a public reply under the comment; private_reply: a private message to the commenter (Instagram and Facebook only).',
    }),
    text: Type.String({
      minLength: 1,
      maxLength: AUTOMATION_LIMITS.replyText,
      description:
        'The reply. `{name}` becomes the commenter\'s name (their username on Instagram and Threads), or "there" when the platform sent none.',
    }),
  },
  { additionalProperties: false },
);

const CapsSchema = Type.Object(
  {
    perPost: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: AUTOMATION_LIMITS.perPostMax,
        description: `Most replies this rule sends under one post (default ${DEFAULT_RULE_CAPS.perPost}).`,
      }),
    ),
    perHour: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: AUTOMATION_LIMITS.perHourMax,
        description: `Most replies this rule sends for one profile in any rolling hour (default ${DEFAULT_RULE_CAPS.perHour}).`,
      }),
    ),
  },
  { additionalProperties: false },
);

/** One auto-reply rule, as imported: optional fields take their defaults. */
export const AutomationRuleSchema = Type.Object(
  {
    id: Type.String({
      pattern: '^[A-Za-z0-9_-]{1,64}$',
      description: 'Your name for the rule, unique in the template (letters, digits, _ and -).',
    }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    profileIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        uniqueItems: true,
        description: 'Only comments on these profiles; omitted: every profile of the account.',
      }),
    ),
    platforms: Type.Optional(
      Type.Array(PlatformEnum, {
        minItems: 1,
        uniqueItems: true,
        description: `Only comments on these platforms (comment sources: ${COMMENT_SOURCE_PLATFORMS.join(', ')}); omitted: all of them.`,
      }),
    ),
    trigger: TriggerSchema,
    action: ActionSchema,
    caps: Type.Optional(CapsSchema),
  },
  { additionalProperties: false },
);
export type AutomationRuleInput = Static<typeof AutomationRuleSchema>;

/**
 * The auto-reply template, a versioned JSON document. Rules are tried in order; the first enabled
 * rule whose profiles, platforms and keywords fit a comment answers it. `revision` and `updatedAt`
 * come with an export and are ignored on import, so an exported template imports as it is.
 */
export const AutomationTemplateSchema = Type.Object(
  {
    version: Type.Literal(AUTOMATION_TEMPLATE_VERSION, {
      description: 'The template format; this server reads version 1.',
    }),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true; false pauses every rule.' })),
    rules: Type.Array(AutomationRuleSchema, { maxItems: AUTOMATION_LIMITS.rules }),
    revision: Type.Optional(Type.Integer({ description: 'Read-only: ignored on import.' })),
    updatedAt: Type.Optional(
      Type.Union([Type.String(), Type.Null()], { description: 'Read-only: ignored on import.' }),
    ),
  },
  { additionalProperties: false, title: 'AutomationTemplate' },
);
export type AutomationTemplateInput = Static<typeof AutomationTemplateSchema>;

/** A rule as stored and exported: every default filled in. */
export const AutomationRuleViewSchema = Type.Object({
  id: Type.String(),
  name: Type.Optional(Type.String()),
  enabled: Type.Boolean(),
  profileIds: Type.Optional(Type.Array(Type.String())),
  platforms: Type.Optional(Type.Array(Type.String())),
  trigger: Type.Object({ match: stringEnum(KEYWORD_MATCHES), keywords: Type.Array(Type.String()) }),
  action: Type.Object({ type: stringEnum(REPLY_ACTIONS), text: Type.String() }),
  caps: Type.Object({ perPost: Type.Integer(), perHour: Type.Integer() }),
});
export type AutomationRule = Static<typeof AutomationRuleViewSchema>;

export const AutomationTemplateViewSchema = Type.Object({
  version: Type.Literal(AUTOMATION_TEMPLATE_VERSION),
  enabled: Type.Boolean(),
  rules: Type.Array(AutomationRuleViewSchema),
  revision: Type.Integer({
    description: 'Grows by one with each import that changes the template; 0 before the first.',
  }),
  updatedAt: Type.Union([Timestamp, Type.Null()]),
});
export type AutomationTemplate = Static<typeof AutomationTemplateViewSchema>;

export const TEMPLATE_CHANGE_KINDS = ['template_changed', 'rule_added', 'rule_changed', 'rule_removed'] as const;

export const TemplateChangeSchema = Type.Object({
  kind: stringEnum(TEMPLATE_CHANGE_KINDS),
  ruleId: Type.Optional(Type.String()),
  fields: Type.Optional(
    Type.Array(Type.String(), { description: 'The fields that differ (template_changed, rule_changed).' }),
  ),
});
export type TemplateChange = Static<typeof TemplateChangeSchema>;

export const TemplateImportResultSchema = Type.Object({
  dryRun: Type.Boolean(),
  changed: Type.Boolean({ description: 'Whether the import changes (dry run: would change) the stored template.' }),
  revision: Type.Integer({ description: 'The revision after the import (dry run: the one it would get).' }),
  changes: Type.Array(TemplateChangeSchema),
  template: AutomationTemplateViewSchema,
});
export type TemplateImportResult = Static<typeof TemplateImportResultSchema>;

/** One problem of an invalid template (`details.problems` of its validation_error). */
export const TemplateProblemSchema = Type.Object({
  path: Type.String({ description: 'e.g. rules[0].trigger.keywords' }),
  message: Type.String(),
});
export type TemplateProblem = Static<typeof TemplateProblemSchema>;

export const ACTIVITY_OUTCOMES = ['replied', 'skipped', 'failed', 'pending'] as const;
export type ActivityOutcome = (typeof ACTIVITY_OUTCOMES)[number];
/** Why a comment was answered or not. */
export const ACTIVITY_REASONS = [
  'matched',
  'no_matching_rule',
  'template_disabled',
  'own_comment',
  'per_post_cap',
  'per_hour_cap',
  'platform_error',
  'outcome_unknown',
  'profile_unavailable',
] as const;
export type ActivityReason = (typeof ACTIVITY_REASONS)[number];
export const ACTIVITY_PAGE_MAX = 100;

export const AutomationActivitySchema = Type.Object({
  id: Type.String(),
  profileId: Type.String(),
  platform: Type.String(),
  commentId: Type.String({ description: "The platform's id of the comment." }),
  postId: Type.Union([Type.String(), Type.Null()], {
    description: "The platform's id of the post (media) commented on.",
  }),
  commenter: Type.Object({
    id: Type.Union([Type.String(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()]),
  }),
  commentText: Type.String(),
  outcome: stringEnum(ACTIVITY_OUTCOMES, {
    description: 'replied, skipped, failed, or pending while the reply is being sent or retried.',
  }),
  reason: stringEnum(ACTIVITY_REASONS),
  detail: Type.String({ description: 'Why, in a sentence.' }),
  ruleId: Type.Union([Type.String(), Type.Null()]),
  matchedKeywords: Type.Array(Type.String()),
  action: Type.Union([stringEnum(REPLY_ACTIONS), Type.Null()]),
  replyText: Type.Union([Type.String(), Type.Null()]),
  replyId: Type.Union([Type.String(), Type.Null()], {
    description: "The platform's id of the reply (comment or message).",
  }),
  receivedAt: Timestamp,
  repliedAt: Type.Union([Timestamp, Type.Null()]),
});
export type AutomationActivity = Static<typeof AutomationActivitySchema>;

export const AutomationActivityPageSchema = Type.Object({
  data: Type.Array(AutomationActivitySchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next page; null on the last page.',
  }),
});

export const AutomationActivityQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ACTIVITY_PAGE_MAX,
        description: `Items per page, at most ${ACTIVITY_PAGE_MAX} (default 20).`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    outcome: Type.Optional(stringEnum(ACTIVITY_OUTCOMES)),
    profileId: Type.Optional(Type.String({ minLength: 1 })),
    commentId: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type AutomationActivityQuery = Static<typeof AutomationActivityQuerySchema>;

export const AutomationRpc = {
  automationExportTemplate: defineRpc('automation.template.export', Type.Object({}), AutomationTemplateViewSchema),
  /** `template` is checked by the service itself, so that every problem is listed at once. */
  automationImportTemplate: defineRpc(
    'automation.template.import',
    Type.Object({ template: Type.Unknown(), dryRun: Type.Optional(Type.Boolean()) }),
    TemplateImportResultSchema,
  ),
  automationListActivity: defineRpc(
    'automation.activity.list',
    AutomationActivityQuerySchema,
    AutomationActivityPageSchema,
  ),
};
