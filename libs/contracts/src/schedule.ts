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
    time: Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'Local wall time HH:MM in the schedule\'s timezone.' }),
  },
  { additionalProperties: false },
);
export type ScheduleSlot = Static<typeof SlotSchema>;

const fields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone the slots are read in (e.g. Europe/Berlin).' }),
  slots: Type.Array(SlotSchema, { minItems: 1, maxItems: SCHEDULE_SLOTS_MAX, description: 'Weekly slots; a slot the clocks skip moves to the first valid minute after, a repeated one fires at its first occurrence.' }),
  profileIds: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: SCHEDULE_PROFILES_MAX, description: 'Profiles the schedule serves.' }),
  postsPerSlot: Type.Integer({ minimum: 1, maximum: POSTS_PER_SLOT_MAX, description: 'Posts per profile per slot (default 1).' }),
  defaultFor: Type.Array(Type.String({ maxLength: 64 }), { maxItems: SCHEDULE_PROFILES_MAX, description: 'Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule.' }),
};

/** POST /schedules. */
export const ScheduleInputSchema = Type.Object({ ...fields, postsPerSlot: Type.Optional(fields.postsPerSlot), defaultFor: Type.Optional(fields.defaultFor) }, { additionalProperties: false });
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
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: SLOT_PREVIEW_MAX, description: `Slots to list (default ${SLOT_PREVIEW_DEFAULT}).` })),
  },
  { additionalProperties: false },
);

export const SlotPreviewSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      scheduledTime: Timestamp,
      local: Type.String({ description: 'The slot in the schedule\'s timezone, YYYY-MM-DDTHH:MM.' }),
      profiles: Type.Array(Type.Object({ profileId: Type.String(), taken: Type.Integer({ description: 'Queued posts in this slot.' }), free: Type.Boolean() })),
    }),
  ),
});
export type SlotPreview = Static<typeof SlotPreviewSchema>;
