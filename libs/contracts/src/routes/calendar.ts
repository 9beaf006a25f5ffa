import { Type } from '@sinclair/typebox';
import { CalendarQuerySchema, CalendarSchema } from '../calendar';
import { Rpc } from '../rpc';
import type { RouteDef } from './define';

/** The posts of a range of local days, grouped by day. */
export const CalendarRoutes = {
  getCalendar: {
    id: 'getCalendar',
    method: 'get',
    path: '/api/v1/calendar',
    scope: 'post:read',
    summary:
      'Posts whose scheduled time falls in the local days from…to (at most 62) of an IANA timezone (default UTC), grouped by local day, every day listed.',
    rpc: Rpc.calendarGet,
    query: CalendarQuerySchema,
    response: CalendarSchema,
    status: 200,
    tool: {
      name: 'svc_get_calendar',
      title: 'Calendar of posts',
      description:
        'List the posts scheduled in a range of local days (from, to: YYYY-MM-DD, at most 62 days) in an IANA timezone (default UTC), grouped by day, optionally for one profileId.',
      input: Type.Object(CalendarQuerySchema.properties, { additionalProperties: false }),
      toRpc: (args) => args,
      validateInput: false,
      annotations: { readOnlyHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
} satisfies Record<string, RouteDef>;
