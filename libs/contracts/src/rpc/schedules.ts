import { Type } from '@sinclair/typebox';
import { ScheduleListSchema, ScheduleSchema, SlotPreviewSchema } from '../schedule';
import { defineRpc } from './define';

/** Bodies travel as `unknown` so that posts names the field at fault with its own rules. */
export const SchedulesRpc = {
  schedulesCreate: defineRpc('posts.schedules.create', Type.Object({ body: Type.Unknown() }), ScheduleSchema),
  schedulesList: defineRpc('posts.schedules.list', Type.Object({}), ScheduleListSchema),
  schedulesGet: defineRpc('posts.schedules.get', Type.Object({ id: Type.String() }), ScheduleSchema),
  schedulesUpdate: defineRpc('posts.schedules.update', Type.Object({ id: Type.String(), patch: Type.Unknown() }), ScheduleSchema),
  schedulesDelete: defineRpc('posts.schedules.delete', Type.Object({ id: Type.String() }), ScheduleSchema),
  schedulesSlots: defineRpc('posts.schedules.slots', Type.Object({ id: Type.String(), from: Type.Optional(Type.String()), count: Type.Optional(Type.Unknown()) }), SlotPreviewSchema),
};
