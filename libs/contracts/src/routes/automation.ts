import { Type } from '@sinclair/typebox';
import { Rpc } from '../rpc';
import {
  ACTIVITY_OUTCOMES,
  ACTIVITY_PAGE_MAX,
  AutomationActivityPageSchema,
  AutomationTemplateSchema,
  AutomationTemplateViewSchema,
  COMMENT_SOURCE_PLATFORMS,
  TemplateImportResultSchema,
} from '../rpc/automation';
import type { RouteDef } from './define';

const AUTH_ERRORS = [
  'missing_api_key',
  'invalid_api_key',
  'insufficient_scope',
  'api_access_disabled',
  'plan_required',
  'rate_limited',
  'service_unavailable',
] as const;

/** Auto-reply to comments: the account's template (export, import) and what it answered. */
export const AutomationRoutes = {
  exportAutomationTemplate: {
    id: 'exportAutomationTemplate',
    method: 'get',
    path: '/api/v1/automation/template',
    scope: 'automation:read',
    summary:
      "Export the account's auto-reply template: its rules with every default filled in, its revision and when it last changed.",
    rpc: Rpc.automationExportTemplate,
    response: AutomationTemplateViewSchema,
    status: 200,
    tool: {
      name: 'svc_export_automation_template',
      title: 'Export the auto-reply template',
      description: `Export the account's auto-reply template (JSON, version 1): rules that answer comments on ${COMMENT_SOURCE_PLATFORMS.join(', ')} matching keywords (any, all or exact) with a public or private reply, within per-post and per-hour caps. Edit it and pass it to svc_import_automation_template.`,
      input: Type.Object({}, { additionalProperties: false }),
      toRpc: () => ({}),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  importAutomationTemplate: {
    id: 'importAutomationTemplate',
    method: 'put',
    path: '/api/v1/automation/template',
    scope: 'automation:write',
    summary:
      'Import (replace) the auto-reply template. An invalid template changes nothing and answers 400 validation_error listing every problem in details.problems; ?dryRun=true reports what would change and stores nothing. Needs a key that may use every profile.',
    rpc: Rpc.automationImportTemplate,
    body: AutomationTemplateSchema,
    query: Type.Object({
      dryRun: Type.Optional(Type.String({ description: 'true: validate and report the changes, store nothing.' })),
    }),
    errors: [...AUTH_ERRORS, 'profile_scope_denied', 'validation_error', 'invalid_json'],
    response: TemplateImportResultSchema,
    status: 200,
    tool: {
      name: 'svc_import_automation_template',
      title: 'Import the auto-reply template',
      description:
        'Import (replace) the auto-reply template (as exported by svc_export_automation_template). An invalid template changes nothing and the error lists every problem; with dryRun true, reports what would change and stores nothing.',
      input: Type.Object(
        {
          template: AutomationTemplateSchema,
          dryRun: Type.Optional(Type.Boolean({ description: 'Validate and report the changes only.' })),
        },
        { additionalProperties: false },
      ),
      toRpc: (args) => ({ template: args?.template ?? null, dryRun: args?.dryRun ?? false }),
      validateInput: false,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  listAutomationActivity: {
    id: 'listAutomationActivity',
    method: 'get',
    path: '/api/v1/automation/activity',
    scope: 'automation:read',
    summary:
      'What auto-reply did with each comment it heard, newest first: replied, skipped or failed, with the rule, the reply and why.',
    rpc: Rpc.automationListActivity,
    query: Type.Object({
      outcome: Type.Optional(Type.String({ description: `One of ${ACTIVITY_OUTCOMES.join(', ')}.` })),
      profileId: Type.Optional(Type.String()),
      commentId: Type.Optional(Type.String({ description: "The platform's comment id." })),
      limit: Type.Optional(Type.String({ description: `Page size, 1 to ${ACTIVITY_PAGE_MAX} (default 20).` })),
      cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page.' })),
    }),
    response: AutomationActivityPageSchema,
    status: 200,
  },
} satisfies Record<string, RouteDef>;
