import { Type, type Static } from '@sinclair/typebox';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const SCHEDULE_SLOTS_MAX = 168;
export const SCHEDULE_PROFILES_MAX = 50;
export const POSTS_PER_SLOT_MAX = 10;
export const SLOT_PREVIEW_MAX = 100;
export const SLOT_PREVIEW_DEFAULT = 10;

const Timestamp = Type.String({ format: 'date-time' });
const SlotSchema = Type.Object(
  {
    day: Type.Union(WEEKDAYS.map((d) => Type.Literal(d))),
    time: Type.String({
      pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
      description: "Local wall time HH:MM in the schedule's timezone.",
    }),
  },
  { additionalProperties: false },
);
export type ScheduleSlot = Static<typeof SlotSchema>;

const fields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  timezone: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'IANA time zone the slots are read in (e.g. Europe/Berlin).',
  }),
  slots: Type.Array(SlotSchema, {
    minItems: 1,
    maxItems: SCHEDULE_SLOTS_MAX,
    description:
      'Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence.',
  }),
  profileIds: Type.Array(Type.String({ maxLength: 64 }), {
    minItems: 1,
    maxItems: SCHEDULE_PROFILES_MAX,
    description: 'Profiles the schedule serves.',
  }),
  postsPerSlot: Type.Integer({
    minimum: 1,
    maximum: POSTS_PER_SLOT_MAX,
    description: 'Posts per profile per slot (default 1).',
  }),
  defaultFor: Type.Array(Type.String({ maxLength: 64 }), {
    maxItems: SCHEDULE_PROFILES_MAX,
    description:
      'Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule.',
  }),
};

/** POST /schedules. */
export const ScheduleInputSchema = Type.Object(
  { ...fields, postsPerSlot: Type.Optional(fields.postsPerSlot), defaultFor: Type.Optional(fields.defaultFor) },
  { additionalProperties: false },
);
export type ScheduleInput = Static<typeof ScheduleInputSchema>;
/** PATCH /schedules/{id}: any of the fields. */
export const SchedulePatchSchema = Type.Partial(Type.Object(fields), { additionalProperties: false });
export type SchedulePatch = Static<typeof SchedulePatchSchema>;

export const ScheduleSchema = Type.Object({
  id: Type.String(),
  ...fields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Schedule = Static<typeof ScheduleSchema>;

export const ScheduleListSchema = Type.Object({ data: Type.Array(ScheduleSchema) });

export const SlotPreviewQuerySchema = Type.Object(
  {
    from: Type.Optional(Type.String({ description: 'ISO 8601 with Z or an offset; default now.' })),
    count: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SLOT_PREVIEW_MAX,
        description: `Slots to list (default ${SLOT_PREVIEW_DEFAULT}).`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const SlotPreviewSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      scheduledTime: Timestamp,
      local: Type.String({ description: "The slot in the schedule's timezone, YYYY-MM-DDTHH:MM." }),
      profiles: Type.Array(
        Type.Object({
          profileId: Type.String(),
          taken: Type.Integer({ description: 'Queued posts in this slot.' }),
          free: Type.Boolean(),
        }),
      ),
    }),
  ),
});
export type SlotPreview = Static<typeof SlotPreviewSchema>;

// ---- GET /api/v1/schedules/suggest ------------------------------------------------------------

export const SUGGEST_HISTORY_DAYS = 90;
/** Published posts with engagement figures needed before suggestions come from history. */
export const SUGGEST_MIN_POSTS = 10;
export const SUGGEST_COUNT_DEFAULT = 7;
export const SUGGEST_COUNT_MAX = 21;

/**
 * Weekly slots proposed to a profile with too little history of its own: one a day at the hours
 * commonly reported as the busiest for each platform. A starting point to replace with the
 * profile's own figures once it has them, not a measurement.
 */
export const DEFAULT_SUGGESTED_SLOTS: Record<string, ScheduleSlot[]> = {
  instagram: slotsAt(['11:00', '11:00', '11:00', '11:00', '10:00', '10:00', '18:00']),
  facebook: slotsAt(['09:00', '09:00', '09:00', '09:00', '09:00', '12:00', '12:00']),
  threads: slotsAt(['08:00', '08:00', '12:00', '08:00', '08:00', '10:00', '10:00']),
  tiktok: slotsAt(['19:00', '16:00', '19:00', '19:00', '17:00', '11:00', '19:00']),
  youtube: slotsAt(['15:00', '15:00', '15:00', '15:00', '15:00', '10:00', '10:00']),
};

function slotsAt(timeByWeekday: string[]): ScheduleSlot[] {
  return WEEKDAYS.map((day, i) => ({ day, time: timeByWeekday[i] }));
}

export const SuggestSlotsQuerySchema = Type.Object(
  {
    profileId: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The profile to suggest slots for, e.g. prf_…',
    }),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'IANA time zone the slots are given in (default UTC), e.g. Europe/Berlin.',
      }),
    ),
    count: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SUGGEST_COUNT_MAX,
        description: `Slots to propose (default ${SUGGEST_COUNT_DEFAULT}).`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type SuggestSlotsQuery = Static<typeof SuggestSlotsQuerySchema>;

export const SlotSuggestionSchema = Type.Object({
  profileId: Type.String(),
  platform: Type.String(),
  timezone: Type.String(),
  basis: Type.Union([Type.Literal('history'), Type.Literal('defaults')], {
    description:
      '"history": ranked from this profile\'s own published posts and their engagement; "defaults": the documented per-platform defaults, because the history is too short (see reason).',
  }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why defaults were returned, or null.' }),
  postsAnalyzed: Type.Integer({
    minimum: 0,
    description: `Published posts of the last ${SUGGEST_HISTORY_DAYS} days with engagement figures.`,
  }),
  minimumPosts: Type.Integer({ description: 'Posts needed before suggestions come from history.' }),
  slots: Type.Array(
    Type.Object({
      day: Type.Union(WEEKDAYS.map((d) => Type.Literal(d))),
      time: Type.String({ description: 'HH:MM in `timezone`.' }),
      posts: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: 'Published posts in this weekly hour (null for defaults).',
      }),
      averageEngagement: Type.Union([Type.Number(), Type.Null()], {
        description:
          'Mean of likes + comments + shares per post in this weekly hour (views where a platform reports only views; null for defaults).',
      }),
    }),
    { description: 'Ready to use as the `slots` of POST /api/v1/schedules.' },
  ),
});
export type SlotSuggestion = Static<typeof SlotSuggestionSchema>;
