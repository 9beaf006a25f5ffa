import { Type, type Static } from '@sinclair/typebox';

/** Widest calendar range, in local days, from and to included. */
export const CALENDAR_DAYS_MAX = 62;
/** Most posts one calendar answer carries; beyond it the answer says `truncated: true`. */
export const CALENDAR_POSTS_MAX = 2000;
export const CALENDAR_CAPTION_CHARS = 80;

const LocalDate = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'A local date YYYY-MM-DD in `timezone`.',
});

export const CalendarQuerySchema = Type.Object(
  {
    from: Type.String({ ...LocalDate, description: 'First local day, YYYY-MM-DD, included.' }),
    to: Type.String({
      ...LocalDate,
      description: `Last local day, YYYY-MM-DD, included; at most ${CALENDAR_DAYS_MAX} days from \`from\`.`,
    }),
    timezone: Type.Optional(
      Type.String({ maxLength: 64, description: 'IANA time zone the days are read in (default UTC).' }),
    ),
    profileId: Type.Optional(Type.String({ maxLength: 64, description: "Only this profile's posts." })),
  },
  { additionalProperties: false },
);
export type CalendarQuery = Static<typeof CalendarQuerySchema>;

export const CalendarPostSchema = Type.Object({
  id: Type.String(),
  platform: Type.String(),
  profileId: Type.String(),
  status: Type.String(),
  scheduledTime: Type.String({ format: 'date-time' }),
  local: Type.String({ description: 'Wall time HH:MM in `timezone`.' }),
  caption: Type.String({ description: `The first ${CALENDAR_CAPTION_CHARS} characters of the caption.` }),
  permalink: Type.Optional(Type.String()),
});

export const CalendarSchema = Type.Object({
  timezone: Type.String(),
  days: Type.Array(Type.Object({ date: Type.String(), posts: Type.Array(CalendarPostSchema) }), {
    description: 'Every day of the range in order, empty days included.',
  }),
  truncated: Type.Optional(
    Type.Boolean({
      description: `True when more than ${CALENDAR_POSTS_MAX} posts fall in the range; the earliest ${CALENDAR_POSTS_MAX} are listed.`,
    }),
  ),
});
export type Calendar = Static<typeof CalendarSchema>;
