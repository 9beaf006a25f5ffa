import { Type } from '@sinclair/typebox';
import { CalendarSchema } from '../calendar';
import { defineRpc } from './define';

/** Query values travel as given so that posts names the field at fault with its own rules. */
export const CalendarRpc = {
  calendarGet: defineRpc(
    'posts.calendar.get',
    Type.Object({
      from: Type.Optional(Type.Unknown()),
      to: Type.Optional(Type.Unknown()),
      timezone: Type.Optional(Type.Unknown()),
      profileId: Type.Optional(Type.Unknown()),
    }),
    CalendarSchema,
  ),
};
