/** Every tool the agent endpoint lists (spec 4.3). Each has a REST twin in routes/. */
export const MCP_TOOL_NAMES = [
  'svc_add_media_from_url',
  'svc_bulk_create_posts',
  'svc_cancel_series',
  'svc_create_schedule',
  'svc_create_upload_url',
  'svc_delete_schedule',
  'svc_delete_scheduled_post',
  'svc_draft_post',
  'svc_export_automation_template',
  'svc_get_account_summary',
  'svc_get_analytics',
  'svc_get_billing_summary',
  'svc_get_calendar',
  'svc_get_connection_health',
  'svc_get_pinterest_boards',
  'svc_get_post_approval_status',
  'svc_get_post_status',
  'svc_get_schedule',
  'svc_get_series',
  'svc_get_tiktok_posting_options',
  'svc_import_automation_template',
  'svc_list_connected_social_accounts',
  'svc_list_profiles',
  'svc_list_scheduled_posts',
  'svc_list_schedules',
  'svc_preview_schedule_slots',
  'svc_request_post_approval',
  'svc_schedule_post',
  'svc_suggest_schedule_slots',
  'svc_update_scheduled_post',
  'svc_update_schedule',
  'svc_update_series',
  'svc_upload_media',
  'svc_validate_post_policy',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

export const MCP_SCOPES = ['profile', 'mcp:read', 'mcp:write', 'offline_access'] as const;

/**
 * Largest JSON-RPC request body the agent endpoint reads from an authenticated caller (1 MiB).
 * Anonymous callers get less; files bigger than svc_upload_media's cap go through the REST upload
 * or a link import, never base64 in JSON-RPC.
 */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;
