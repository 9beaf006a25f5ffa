import { Type } from '@sinclair/typebox';
import { Rpc } from '../rpc';
import {
  ScheduleInputSchema,
  ScheduleListSchema,
  SchedulePatchSchema,
  ScheduleSchema,
  SlotPreviewQuerySchema,
  SlotPreviewSchema,
  SlotSuggestionSchema,
  SuggestSlotsQuerySchema,
} from '../schedule';
import { SeriesPatchSchema, SeriesSchema } from '../series';
import type { RouteDef } from './define';

const ScheduleId = { scheduleId: Type.String() };

/** Posting schedules (queues): weekly local-time slots that a create with `schedule` fills in order. */
export const ScheduleRoutes = {
  createSchedule: {
    id: 'createSchedule',
    method: 'post',
    path: '/api/v1/schedules',
    scope: 'post:write',
    summary:
      'Create a posting schedule: weekly slots in an IANA timezone, the profiles it serves and how many posts a slot takes.',
    rpc: Rpc.schedulesCreate,
    body: ScheduleInputSchema,
    response: ScheduleSchema,
    status: 201,
    tool: {
      name: 'svc_create_schedule',
      title: 'Create a posting schedule',
      description:
        'Create a posting schedule (queue): weekly slots { day: mon…sun, time: HH:MM } read in an IANA timezone, the profileIds it serves and postsPerSlot (default 1). Queue a post into it with svc_schedule_post and "schedule": "<id>".',
      input: Type.Object(
        {
          ...ScheduleInputSchema.properties,
          idempotencyKey: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 255,
              description: 'Send the same key when retrying: the schedule is created once, and a retry answers it.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      toRpc: ({ idempotencyKey, ...body }) => ({ body, ...(idempotencyKey !== undefined && { idempotencyKey }) }),
      validateInput: false,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  listSchedules: {
    id: 'listSchedules',
    method: 'get',
    path: '/api/v1/schedules',
    scope: 'post:read',
    summary:
      "List the account's posting schedules (for a key limited to some profiles: those serving only its profiles).",
    rpc: Rpc.schedulesList,
    response: ScheduleListSchema,
    status: 200,
    tool: {
      name: 'svc_list_schedules',
      title: 'List posting schedules',
      description: 'List the posting schedules (queues) of the account.',
      input: Type.Object({}, { additionalProperties: false }),
      toRpc: () => ({}),
      annotations: { readOnlyHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  suggestScheduleSlots: {
    id: 'suggestScheduleSlots',
    method: 'get',
    path: '/api/v1/schedules/suggest',
    scope: 'post:read',
    summary:
      'Weekly slots proposed for a profile from its own engagement history (the last 90 days), or documented per-platform defaults when it has too little.',
    rpc: Rpc.schedulesSuggest,
    query: SuggestSlotsQuerySchema,
    response: SlotSuggestionSchema,
    status: 200,
    tool: {
      name: 'svc_suggest_schedule_slots',
      title: 'Suggest posting times',
      description:
        'Propose weekly posting slots for a profile: its best weekly hours by engagement of its own published posts, or per-platform defaults (basis "defaults") when it has fewer than 10 measured posts. The slots can be passed to svc_create_schedule as they are.',
      input: SuggestSlotsQuerySchema,
      toRpc: (args) => args,
      annotations: { readOnlyHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  getSchedule: {
    id: 'getSchedule',
    method: 'get',
    path: '/api/v1/schedules/{id}',
    scope: 'post:read',
    summary: 'One posting schedule.',
    rpc: Rpc.schedulesGet,
    response: ScheduleSchema,
    status: 200,
    tool: {
      name: 'svc_get_schedule',
      title: 'Read a posting schedule',
      description: 'Read one posting schedule (queue).',
      input: Type.Object(ScheduleId, { additionalProperties: false }),
      toRpc: (args) => ({ id: args.scheduleId }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  updateSchedule: {
    id: 'updateSchedule',
    method: 'patch',
    path: '/api/v1/schedules/{id}',
    scope: 'post:write',
    summary: 'Change a posting schedule; posts already queued keep their times.',
    rpc: Rpc.schedulesUpdate,
    body: SchedulePatchSchema,
    response: ScheduleSchema,
    status: 200,
    tool: {
      name: 'svc_update_schedule',
      title: 'Change a posting schedule',
      description:
        'Change the name, timezone, slots, profileIds or postsPerSlot of a posting schedule. Posts already queued keep their times.',
      input: Type.Object({ ...ScheduleId, ...SchedulePatchSchema.properties }, { additionalProperties: false }),
      toRpc: ({ scheduleId, ...patch }) => ({ id: scheduleId, patch }),
      validateInput: false,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  deleteSchedule: {
    id: 'deleteSchedule',
    method: 'delete',
    path: '/api/v1/schedules/{id}',
    scope: 'post:write',
    summary: 'Delete a posting schedule; posts already queued stay scheduled at their times.',
    rpc: Rpc.schedulesDelete,
    response: ScheduleSchema,
    status: 200,
    tool: {
      name: 'svc_delete_schedule',
      title: 'Delete a posting schedule',
      description: 'Delete a posting schedule (queue). Posts already queued stay scheduled at their times.',
      input: Type.Object(ScheduleId, { additionalProperties: false }),
      toRpc: (args) => ({ id: args.scheduleId }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  previewScheduleSlots: {
    id: 'previewScheduleSlots',
    method: 'get',
    path: '/api/v1/schedules/{id}/slots',
    scope: 'post:read',
    summary:
      'The next slots of a schedule from `from` (default now): UTC instant, local time, and per profile how many posts are queued in each.',
    rpc: Rpc.schedulesSlots,
    query: SlotPreviewQuerySchema,
    response: SlotPreviewSchema,
    status: 200,
    tool: {
      name: 'svc_preview_schedule_slots',
      title: 'Preview schedule slots',
      description:
        'List the next slots of a posting schedule (UTC instant and local time) and, per profile, whether each is taken.',
      input: Type.Object({ ...ScheduleId, ...SlotPreviewQuerySchema.properties }, { additionalProperties: false }),
      toRpc: ({ scheduleId, ...q }) => ({ id: scheduleId, ...q }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  getSeries: {
    id: 'getSeries',
    method: 'get',
    path: '/api/v1/series/{id}',
    scope: 'post:read',
    summary:
      'A recurring post: its rule, its status, the next occurrence to be created and every occurrence so far with its posts or why it was refused.',
    rpc: Rpc.seriesGet,
    response: SeriesSchema,
    status: 200,
    tool: {
      name: 'svc_get_series',
      title: 'Read a recurring post',
      description:
        'Read a recurring post (series): rule, status, next occurrence, and each occurrence with its postIds or the error that refused it.',
      input: Type.Object(
        { seriesId: Type.String({ description: 'The seriesId a create with recurrence answered, e.g. ser_…' }) },
        { additionalProperties: false },
      ),
      toRpc: (args) => ({ id: args.seriesId }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  updateSeries: {
    id: 'updateSeries',
    method: 'patch',
    path: '/api/v1/series/{id}',
    scope: 'post:write',
    summary:
      'Change every occurrence of a recurring post not yet dispatched, and those still to come (caption, title, media, platformMeta, category).',
    rpc: Rpc.seriesUpdate,
    body: SeriesPatchSchema,
    response: SeriesSchema,
    status: 200,
    tool: {
      name: 'svc_update_series',
      title: 'Change a recurring post',
      description:
        'Change the caption, title, mediaUrls/mediaId, platformMeta or category of every future occurrence of a recurring post. To change one occurrence alone, update its post.',
      input: Type.Object(
        { seriesId: Type.String({ description: 'e.g. ser_…' }), ...SeriesPatchSchema.properties },
        { additionalProperties: false },
      ),
      toRpc: ({ seriesId, ...patch }) => ({ id: seriesId, patch }),
      validateInput: false,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  cancelSeries: {
    id: 'cancelSeries',
    method: 'delete',
    path: '/api/v1/series/{id}',
    scope: 'post:write',
    summary:
      'Stop a recurring post: no further occurrences, and every occurrence not yet dispatched is cancelled. Posts already out stay.',
    rpc: Rpc.seriesCancel,
    response: SeriesSchema,
    status: 200,
    tool: {
      name: 'svc_cancel_series',
      title: 'Stop a recurring post',
      description:
        'Stop a recurring post: cancels every occurrence not yet dispatched and creates no more. To cancel one occurrence alone, cancel its post.',
      input: Type.Object({ seriesId: Type.String({ description: 'e.g. ser_…' }) }, { additionalProperties: false }),
      toRpc: (args) => ({ id: args.seriesId }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
} satisfies Record<string, RouteDef>;
