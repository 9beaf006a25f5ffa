import { Type } from '@sinclair/typebox';
import { ScheduleListSchema, ScheduleSchema, SlotPreviewSchema, SlotSuggestionSchema } from '../schedule';
import { SeriesSchema } from '../series';
import { defineRpc } from './define';

/** Bodies travel as `unknown` so that posts names the field at fault with its own rules. */
export const SchedulesRpc = {
  schedulesCreate: defineRpc(
    'posts.schedules.create',
    Type.Object({ body: Type.Unknown(), idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
    ScheduleSchema,
  ),
  schedulesList: defineRpc('posts.schedules.list', Type.Object({}), ScheduleListSchema),
  schedulesGet: defineRpc('posts.schedules.get', Type.Object({ id: Type.String() }), ScheduleSchema),
  schedulesUpdate: defineRpc(
    'posts.schedules.update',
    Type.Object({ id: Type.String(), patch: Type.Unknown() }),
    ScheduleSchema,
  ),
  schedulesDelete: defineRpc('posts.schedules.delete', Type.Object({ id: Type.String() }), ScheduleSchema),
  schedulesSlots: defineRpc(
    'posts.schedules.slots',
    Type.Object({ id: Type.String(), from: Type.Optional(Type.String()), count: Type.Optional(Type.Unknown()) }),
    SlotPreviewSchema,
  ),
  schedulesSuggest: defineRpc(
    'posts.schedules.suggest',
    Type.Object({
      profileId: Type.Optional(Type.Unknown()),
      timezone: Type.Optional(Type.Unknown()),
      count: Type.Optional(Type.Unknown()),
    }),
    SlotSuggestionSchema,
  ),
  seriesGet: defineRpc('posts.series.get', Type.Object({ id: Type.String() }), SeriesSchema),
  seriesUpdate: defineRpc(
    'posts.series.update',
    Type.Object({ id: Type.String(), patch: Type.Unknown() }),
    SeriesSchema,
  ),
  seriesCancel: defineRpc('posts.series.cancel', Type.Object({ id: Type.String() }), SeriesSchema),
};
