import { Type, type Static } from '@sinclair/typebox';

/** How far ahead occurrences of a recurring post exist as posts (they are created as time passes). */
export const SERIES_HORIZON_DAYS_DEFAULT = 30;
/** Occurrences a series may have in all (COUNT, or what UNTIL and the rule give). */
export const SERIES_OCCURRENCES_MAX = 1000;

const Timestamp = Type.String({ format: 'date-time' });

export const SeriesOccurrenceSchema = Type.Object({
  index: Type.Integer({ minimum: 0, description: 'Position in the series, the first being 0.' }),
  scheduledTime: Timestamp,
  postIds: Type.Array(Type.String(), {
    description: 'The posts created for this occurrence (one per profile); empty when refused.',
  }),
  error: Type.Union([Type.Object({ code: Type.String(), error: Type.String() }), Type.Null()], {
    description: 'Why this occurrence was not created (e.g. quota_exceeded), or null.',
  }),
});

export const SeriesSchema = Type.Object({
  id: Type.String(),
  rule: Type.String({ description: 'The RRULE as given.' }),
  timezone: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('ended'), Type.Literal('cancelled')], {
    description:
      'active: more occurrences will be created; ended: every occurrence exists; cancelled: stopped by DELETE.',
  }),
  firstTime: Timestamp,
  nextTime: Type.Union([Timestamp, Type.Null()], {
    description: 'When the next occurrence not yet created is due, or null.',
  }),
  template: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The post each new occurrence is created from (the create body without scheduledTime and recurrence).',
  }),
  occurrences: Type.Array(SeriesOccurrenceSchema),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Series = Static<typeof SeriesSchema>;

/** PATCH /series/{id}: post fields applied to every occurrence not yet dispatched and to those still to come. */
export const SeriesPatchSchema = Type.Object(
  {
    caption: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    mediaUrls: Type.Optional(Type.Array(Type.String())),
    mediaId: Type.Optional(Type.String()),
    platformMeta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    category: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
