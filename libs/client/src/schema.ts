// Generated from openapi.json by scripts/generate-client.ts — do not edit.
export interface paths {
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health of every service, the database and the broker */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account and user, the calling key (name, scopes, profile restriction), connected profiles per platform (and those needing a reconnect), and post counts by status.
         * @description The account and user, the calling key (name, scopes, profile restriction), connected profiles per platform (and those needing a reconnect), and post counts by status.
         *
         *     Requires scope `account:read`. Agent tool twin: `svc_get_account_summary`.
         */
        get: operations["getAccountSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * For posts due in a time range: scheduled, posted, failed, success rate, median and p95 dispatch lag, top failure reasons and engagement (views, likes, comments, shares as the platforms report them), optionally per platform, profile, category or day.
         * @description For posts due in a time range: scheduled, posted, failed, success rate, median and p95 dispatch lag, top failure reasons and engagement (views, likes, comments, shares as the platforms report them), optionally per platform, profile, category or day.
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_get_analytics`.
         */
        get: operations["getAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/automation/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What auto-reply did with each comment it heard, newest first: replied, skipped or failed, with the rule, the reply and why.
         * @description What auto-reply did with each comment it heard, newest first: replied, skipped or failed, with the rule, the reply and why.
         *
         *     Requires scope `automation:read`.
         */
        get: operations["listAutomationActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/automation/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the account's auto-reply template: its rules with every default filled in, its revision and when it last changed.
         * @description Export the account's auto-reply template: its rules with every default filled in, its revision and when it last changed.
         *
         *     Requires scope `automation:read`. Agent tool twin: `svc_export_automation_template`.
         */
        get: operations["exportAutomationTemplate"];
        /**
         * Import (replace) the auto-reply template. An invalid template changes nothing and answers 400 validation_error listing every problem in details.problems; ?dryRun=true reports what would change and stores nothing. Needs a key that may use every profile.
         * @description Import (replace) the auto-reply template. An invalid template changes nothing and answers 400 validation_error listing every problem in details.problems; ?dryRun=true reports what would change and stores nothing. Needs a key that may use every profile.
         *
         *     Requires scope `automation:write`. Agent tool twin: `svc_import_automation_template`.
         */
        put: operations["importAutomationTemplate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Plan, trial dates and days left, tester flag, the scheduling and storage quotas with their use this period, and what happens when each runs out. Plans are changed by an operator; no payment is taken here.
         * @description Plan, trial dates and days left, tester flag, the scheduling and storage quotas with their use this period, and what happens when each runs out. Plans are changed by an operator; no payment is taken here.
         *
         *     Requires scope `account:read`. Agent tool twin: `svc_get_billing_summary`.
         */
        get: operations["getBillingSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/calendar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Posts whose scheduled time falls in the local days from…to (at most 62) of an IANA timezone (default UTC), grouped by local day, every day listed.
         * @description Posts whose scheduled time falls in the local days from…to (at most 62) of an IANA timezone (default UTC), grouped by local day, every day listed.
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_get_calendar`.
         */
        get: operations["getCalendar"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the connected social accounts visible to the key; their ids are used as profileIds.
         * @description List the connected social accounts visible to the key; their ids are used as profileIds.
         *
         *     Requires scope `account:read`. Agent tool twin: `svc_list_connected_social_accounts`.
         */
        get: operations["listConnections"];
        put?: never;
        /**
         * Create a connection request: a single-use, short-lived connectUrl that a person opens in a browser to connect a profile.
         * @description Create a connection request: a single-use, short-lived connectUrl that a person opens in a browser to connect a profile.
         *
         *     Requires scope `account:write`.
         */
        post: operations["createConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Disconnect a profile; its scheduled posts fail with a reason and new posts to it are refused. Answers the final state.
         * @description Disconnect a profile; its scheduled posts fail with a reason and new posts to it are refused. Answers the final state.
         *
         *     Requires scope `account:write`.
         */
        delete: operations["deleteConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connections/{id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a profile still lacks to publish: token expiry and refresh state, granted vs needed scopes, the platform's remaining publishing quota where it tells, and TikTok's audit mode.
         * @description What a profile still lacks to publish: token expiry and refresh state, granted vs needed scopes, the platform's remaining publishing quota where it tells, and TikTok's audit mode.
         *
         *     Requires scope `account:read`. Agent tool twin: `svc_get_connection_health`.
         */
        get: operations["getConnectionHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connections/{id}/pinterest/boards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Pinterest profile's boards: a pin goes to one of them (platformMeta.pinterest.boardId).
         * @description A Pinterest profile's boards: a pin goes to one of them (platformMeta.pinterest.boardId).
         *
         *     Requires scope `account:read`. Agent tool twin: `svc_get_pinterest_boards`.
         */
        get: operations["getPinterestBoards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connections/{id}/tiktok/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A TikTok profile's posting options (creator_info): privacy levels, interaction switches and maximum video duration.
         * @description A TikTok profile's posting options (creator_info): privacy levels, interaction switches and maximum video duration.
         *
         *     Requires scope `account:read`. Agent tool twin: `svc_get_tiktok_posting_options`.
         */
        get: operations["getTikTokPostingOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connections/requests/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where a connection request stands: pending, completed (with profileId), expired or failed (with failureReason).
         * @description Where a connection request stands: pending, completed (with profileId), expired or failed (with failureReason).
         *
         *     Requires scope `account:read`.
         */
        get: operations["getConnectionRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's media, newest first; follow nextCursor for the next page.
         * @description List the account's media, newest first; follow nextCursor for the next page.
         *
         *     Requires scope `media:write`.
         */
        get: operations["listMedia"];
        put?: never;
        /**
         * Upload an image or video (multipart/form-data, field `file`, at most 50 MB); answers its mediaId and a signed serve URL.
         * @description Upload an image or video (multipart/form-data, field `file`, at most 50 MB); answers its mediaId and a signed serve URL.
         *
         *     Requires scope `media:write`. Agent tool twin: `svc_upload_media`.
         */
        post: operations["uploadMedia"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/{mediaId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a media asset of the account with a fresh signed URL; 404 not_found for a missing one or another account's.
         * @description Read a media asset of the account with a fresh signed URL; 404 not_found for a missing one or another account's.
         *
         *     Requires scope `media:write`.
         */
        get: operations["getMedia"];
        put?: never;
        post?: never;
        /**
         * Delete a media asset: its URLs stop working and posts refuse its mediaId (media_not_found).
         * @description Delete a media asset: its URLs stop working and posts refuse its mediaId (media_not_found).
         *
         *     Requires scope `media:write`.
         */
        delete: operations["deleteMedia"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/from-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Download a direct file link into the media library (at most 50 MB; the type is read from the file). The same link again answers the same mediaId (200).
         * @description Download a direct file link into the media library (at most 50 MB; the type is read from the file). The same link again answers the same mediaId (200).
         *
         *     Requires scope `media:write`. Agent tool twin: `svc_add_media_from_url`.
         */
        post: operations["importMediaFromUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/upload-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A signed URL, valid 15 minutes, to PUT one file to as raw bytes (at most 50 MB, no key on the PUT): checked like an upload (type read from the bytes, probe, storage quota); answers the mediaId the file will have.
         * @description A signed URL, valid 15 minutes, to PUT one file to as raw bytes (at most 50 MB, no key on the PUT): checked like an upload (type read from the bytes, probe, storage quota); answers the mediaId the file will have.
         *
         *     Requires scope `media:write`. Agent tool twin: `svc_create_upload_url`.
         */
        post: operations["createUploadUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List posts, newest first, with filters and cursor pagination.
         * @description List posts, newest first, with filters and cursor pagination.
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_list_scheduled_posts`.
         */
        get: operations["listPosts"];
        put?: never;
        /**
         * Create posts: one scheduled row per matching profile. Without scheduledTime, due at the next scheduler run.
         * @description Create posts: one scheduled row per matching profile. Without scheduledTime, due at the next scheduler run.
         *
         *     Requires scope `post:write`.
         */
        post: operations["createPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a post: status, publishedAt, permalink, failedReason. Answers an ETag (304 to a matching If-None-Match); with waitFor=final it waits up to `timeout` seconds for the post to reach posted, failed, cancelled or rejected (header Postbus-Final says whether it has).
         * @description Read a post: status, publishedAt, permalink, failedReason. Answers an ETag (304 to a matching If-None-Match); with waitFor=final it waits up to `timeout` seconds for the post to reach posted, failed, cancelled or rejected (header Postbus-Final says whether it has).
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_get_post_status`.
         */
        get: operations["getPost"];
        put?: never;
        post?: never;
        /**
         * Cancel a draft, a post awaiting approval or a scheduled post not yet dispatched; answers the cancelled post.
         * @description Cancel a draft, a post awaiting approval or a scheduled post not yet dispatched; answers the cancelled post.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_delete_scheduled_post`.
         */
        delete: operations["cancelPost"];
        options?: never;
        head?: never;
        /**
         * Change a draft or a scheduled post that has not been dispatched yet (409 post_not_editable otherwise). Setting scheduledTime on a draft schedules it.
         * @description Change a draft or a scheduled post that has not been dispatched yet (409 post_not_editable otherwise). Setting scheduledTime on a draft schedules it.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_update_scheduled_post`.
         */
        patch: operations["updatePost"];
        trace?: never;
    };
    "/api/v1/posts/{id}/approval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The latest approval request of a post: pending, approved, rejected, expired or cancelled.
         * @description The latest approval request of a post: pending, approved, rejected, expired or cancelled.
         *
         *     Requires scope `approval:request`. Agent tool twin: `svc_get_post_approval_status`.
         */
        get: operations["getApproval"];
        put?: never;
        /**
         * Send a draft for approval: it becomes pending_approval and approvalUrl is a page where a person approves (→ scheduled) or rejects (→ rejected) it.
         * @description Send a draft for approval: it becomes pending_approval and approvalUrl is a page where a person approves (→ scheduled) or rejects (→ rejected) it.
         *
         *     Requires scope `approval:request`. Agent tool twin: `svc_request_post_approval`.
         */
        post: operations["requestApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create up to 500 posts at once from a JSON array of post payloads or a text/csv body (columns: platforms, profileIds, caption, title, mediaUrls, mediaId, scheduledTime, externalId, category, tiktok.privacyLevel, youtube.privacyStatus). Every row is checked like a single create; the answer has one result per row (postIds, or code, error and field). dryRun=true stores nothing; atomic=true stores every row or none.
         * @description Create up to 500 posts at once from a JSON array of post payloads or a text/csv body (columns: platforms, profileIds, caption, title, mediaUrls, mediaId, scheduledTime, externalId, category, tiktok.privacyLevel, youtube.privacyStatus). Every row is checked like a single create; the answer has one result per row (postIds, or code, error and field). dryRun=true stores nothing; atomic=true stores every row or none.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_bulk_create_posts`.
         */
        post: operations["bulkCreatePosts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store drafts (one per matching profile) that are never published until scheduled, by PATCH with scheduledTime or by approval.
         * @description Store drafts (one per matching profile) that are never published until scheduled, by PATCH with scheduledTime or by approval.
         *
         *     Requires scope `post:draft`. Agent tool twin: `svc_draft_post`.
         */
        post: operations["createDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every post matching the list filters (at most 10000, newest first) as CSV in the bulk import's columns, or as a JSON array.
         * @description Every post matching the list filters (at most 10000, newest first) as CSV in the bulk import's columns, or as a JSON array.
         *
         *     Requires scope `post:read`.
         */
        get: operations["exportPosts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedule posts; scheduledTime is required and must be in the future.
         * @description Schedule posts; scheduledTime is required and must be in the future.
         *
         *     Requires scope `post:write`.
         */
        post: operations["schedulePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a post payload against every rule (platforms, content, per-platform policy, time, profiles, media, quota) and list every problem; nothing is stored.
         * @description Check a post payload against every rule (platforms, content, per-platform policy, time, profiles, media, quota) and list every problem; nothing is stored.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_validate_post_policy`.
         */
        post: operations["validatePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The connected accounts in brief: profile ids with platform, handle and status.
         * @description The connected accounts in brief: profile ids with platform, handle and status.
         *
         *     Requires scope `account:read`. Agent tool twin: `svc_list_profiles`.
         */
        get: operations["listProfiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish posts at the next scheduler run (or at scheduledTime); never synchronous with the call.
         * @description Publish posts at the next scheduler run (or at scheduledTime); never synchronous with the call.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_schedule_post`.
         */
        post: operations["publishPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's posting schedules (for a key limited to some profiles: those serving only its profiles).
         * @description List the account's posting schedules (for a key limited to some profiles: those serving only its profiles).
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_list_schedules`.
         */
        get: operations["listSchedules"];
        put?: never;
        /**
         * Create a posting schedule: weekly slots in an IANA timezone, the profiles it serves and how many posts a slot takes.
         * @description Create a posting schedule: weekly slots in an IANA timezone, the profiles it serves and how many posts a slot takes.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_create_schedule`.
         */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One posting schedule.
         * @description One posting schedule.
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_get_schedule`.
         */
        get: operations["getSchedule"];
        put?: never;
        post?: never;
        /**
         * Delete a posting schedule; posts already queued stay scheduled at their times.
         * @description Delete a posting schedule; posts already queued stay scheduled at their times.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_delete_schedule`.
         */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        /**
         * Change a posting schedule; posts already queued keep their times.
         * @description Change a posting schedule; posts already queued keep their times.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_update_schedule`.
         */
        patch: operations["updateSchedule"];
        trace?: never;
    };
    "/api/v1/schedules/{id}/slots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The next slots of a schedule from `from` (default now): UTC instant, local time, and per profile how many posts are queued in each.
         * @description The next slots of a schedule from `from` (default now): UTC instant, local time, and per profile how many posts are queued in each.
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_preview_schedule_slots`.
         */
        get: operations["previewScheduleSlots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/suggest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Weekly slots proposed for a profile from its own engagement history (the last 90 days), or documented per-platform defaults when it has too little.
         * @description Weekly slots proposed for a profile from its own engagement history (the last 90 days), or documented per-platform defaults when it has too little.
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_suggest_schedule_slots`.
         */
        get: operations["suggestScheduleSlots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/series/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A recurring post: its rule, its status, the next occurrence to be created and every occurrence so far with its posts or why it was refused.
         * @description A recurring post: its rule, its status, the next occurrence to be created and every occurrence so far with its posts or why it was refused.
         *
         *     Requires scope `post:read`. Agent tool twin: `svc_get_series`.
         */
        get: operations["getSeries"];
        put?: never;
        post?: never;
        /**
         * Stop a recurring post: no further occurrences, and every occurrence not yet dispatched is cancelled. Posts already out stay.
         * @description Stop a recurring post: no further occurrences, and every occurrence not yet dispatched is cancelled. Posts already out stay.
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_cancel_series`.
         */
        delete: operations["cancelSeries"];
        options?: never;
        head?: never;
        /**
         * Change every occurrence of a recurring post not yet dispatched, and those still to come (caption, title, media, platformMeta, category).
         * @description Change every occurrence of a recurring post not yet dispatched, and those still to come (caption, title, media, platformMeta, category).
         *
         *     Requires scope `post:write`. Agent tool twin: `svc_update_series`.
         */
        patch: operations["updateSeries"];
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's webhook endpoints, newest first.
         * @description List the account's webhook endpoints, newest first.
         *
         *     Requires scope `webhook:read`.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register an endpoint for events (post.published, post.failed, …). The answer carries its signing secret, shown only this once.
         * @description Register an endpoint for events (post.published, post.failed, …). The answer carries its signing secret, shown only this once.
         *
         *     Requires scope `webhook:write`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint: its events, and whether it is enabled or disabled (with the reason).
         * @description Read a webhook endpoint: its events, and whether it is enabled or disabled (with the reason).
         *
         *     Requires scope `webhook:read`.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete an endpoint: nothing more is delivered to it, pending deliveries included.
         * @description Delete an endpoint: nothing more is delivered to it, pending deliveries included.
         *
         *     Requires scope `webhook:write`.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change the URL, events or description of an endpoint, or pause (`enabled: false`) and resume (`enabled: true`) it.
         * @description Change the URL, events or description of an endpoint, or pause (`enabled: false`) and resume (`enabled: true`) it.
         *
         *     Requires scope `webhook:write`.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliveries to an endpoint, newest first: status, response code and every attempt's time.
         * @description Deliveries to an endpoint, newest first: status, response code and every attempt's time.
         *
         *     Requires scope `webhook:read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again now (one attempt, same webhook-id, fresh timestamp and signature); answers the delivery, pending.
         * @description Send a delivery again now (one attempt, same webhook-id, fresh timestamp and signature); answers the delivery, pending.
         *
         *     Requires scope `webhook:write`.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a new signing secret, shown only in this answer. For 24 hours deliveries carry signatures with both the new and the previous secret.
         * @description Issue a new signing secret, shown only in this answer. For 24 hours deliveries carry signatures with both the new and the previous secret.
         *
         *     Requires scope `webhook:write`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            /** @enum {string} */
            code: "invalid_json" | "validation_error" | "missing_content" | "missing_platforms" | "unsupported_platform" | "invalid_scheduled_time" | "scheduled_time_in_past" | "invalid_profile_ids" | "media_not_found" | "missing_file" | "media_url_not_direct" | "media_url_refused" | "unsupported_media_type" | "unsupported_photo_format" | "media_url_unverified" | "media_unreadable" | "media_incompatible" | "first_comment_unsupported" | "missing_board" | "missing_api_key" | "invalid_api_key" | "insufficient_scope" | "api_access_disabled" | "plan_required" | "upload_plan_required" | "profile_scope_denied" | "quota_exceeded" | "storage_quota_exceeded" | "invalid_signature" | "post_not_found" | "schedule_not_found" | "series_not_found" | "not_found" | "method_not_allowed" | "external_id_conflict" | "idempotency_conflict" | "post_not_editable" | "schedule_not_applicable" | "schedule_default_taken" | "media_gone" | "file_too_large" | "rate_limited" | "internal_error" | "not_available" | "service_unavailable" | "upstream_timeout";
            details?: unknown;
            error: string;
        };
        Health: {
            services: {
                [key: string]: string;
            };
            /** @enum {unknown} */
            status: "ok" | "degraded";
            /** Format: date-time */
            time: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Something is down; named in services */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getAccountSummary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account: {
                            /** Format: date-time */
                            createdAt: string;
                            id: string;
                            name: string;
                            plan: string;
                            tester: boolean;
                        };
                        /** @description The key (or OAuth grant) making this call. */
                        credential: {
                            expiresAt: string | null;
                            id: string;
                            /** @description The API key's name, or the OAuth client's. */
                            name: string | null;
                            /** @description 'all', or the profile ids the key may use. */
                            profileIds: "all" | string[];
                            scopes: string[];
                            type: "api_key" | "oauth" | "system";
                        };
                        posts: {
                            byStatus: {
                                cancelled: number;
                                draft: number;
                                failed: number;
                                pending_approval: number;
                                posted: number;
                                rejected: number;
                                scheduled: number;
                            };
                            total: number;
                        };
                        profiles: {
                            byPlatform: {
                                bluesky: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                facebook: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                instagram: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                linkedin: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                mastodon: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                pinterest: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                threads: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                tiktok: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                x: {
                                    active: number;
                                    needsReconnect: number;
                                };
                                youtube: {
                                    active: number;
                                    needsReconnect: number;
                                };
                            };
                            /** @description Profiles whose grant the platform refused: send the owner a new connection link. */
                            needsReconnect: {
                                handle: string;
                                id: string;
                                platform: string;
                                statusReason: string | null;
                            }[];
                            /** @description Connected profiles this key may use (active or needing a reconnect). */
                            total: number;
                        };
                        user: {
                            /** Format: date-time */
                            createdAt: string;
                            email: string;
                            id: string;
                        };
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getAnalytics: {
        parameters: {
            query?: {
                from?: string;
                groupBy?: "platform" | "profile" | "category" | "day";
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        from: string;
                        groupBy: "platform" | "profile" | "category" | "day" | null;
                        groups: {
                            cancelled: number;
                            /** @description Dispatch time minus scheduledTime. */
                            dispatchLag: {
                                /** @description Posts the scheduler has sent to a publisher. */
                                dispatched: number;
                                medianMs: number | null;
                                p95Ms: number | null;
                            };
                            engagement: {
                                comments: number | null;
                                lastCollectedAt: string | null;
                                likes: number | null;
                                /** @description Published posts with figures collected so far. */
                                posts: number;
                                shares: number | null;
                                views: number | null;
                            };
                            failed: number;
                            /** @description The platform, profile id, category (null: none) or day (YYYY-MM-DD). */
                            key: string | null;
                            /** @description Still scheduled: waiting or being published. */
                            pending: number;
                            posted: number;
                            /** @description Posts due in the range that entered the pipeline: still scheduled, posted or failed. */
                            scheduled: number;
                            /** @description posted / (posted + failed); null before any outcome. */
                            successRate: number | null;
                            topFailureReasons: {
                                count: number;
                                reason: string;
                            }[];
                        }[];
                        /** Format: date-time */
                        to: string;
                        totals: {
                            cancelled: number;
                            /** @description Dispatch time minus scheduledTime. */
                            dispatchLag: {
                                /** @description Posts the scheduler has sent to a publisher. */
                                dispatched: number;
                                medianMs: number | null;
                                p95Ms: number | null;
                            };
                            engagement: {
                                comments: number | null;
                                lastCollectedAt: string | null;
                                likes: number | null;
                                /** @description Published posts with figures collected so far. */
                                posts: number;
                                shares: number | null;
                                views: number | null;
                            };
                            failed: number;
                            /** @description Still scheduled: waiting or being published. */
                            pending: number;
                            posted: number;
                            /** @description Posts due in the range that entered the pipeline: still scheduled, posted or failed. */
                            scheduled: number;
                            /** @description posted / (posted + failed); null before any outcome. */
                            successRate: number | null;
                            topFailureReasons: {
                                count: number;
                                reason: string;
                            }[];
                        };
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listAutomationActivity: {
        parameters: {
            query?: {
                commentId?: string;
                cursor?: string;
                limit?: string;
                outcome?: string;
                profileId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            action: ("reply" | "private_reply") | null;
                            commenter: {
                                id: string | null;
                                name: string | null;
                            };
                            /** @description The platform's id of the comment. */
                            commentId: string;
                            commentText: string;
                            /** @description Why, in a sentence. */
                            detail: string;
                            id: string;
                            matchedKeywords: string[];
                            /**
                             * @description replied, skipped, failed, or pending while the reply is being sent or retried.
                             * @enum {string}
                             */
                            outcome: "replied" | "skipped" | "failed" | "pending";
                            platform: string;
                            /** @description The platform's id of the post (media) commented on. */
                            postId: string | null;
                            profileId: string;
                            /** @enum {string} */
                            reason: "matched" | "no_matching_rule" | "template_disabled" | "own_comment" | "per_post_cap" | "per_hour_cap" | "platform_error" | "outcome_unknown" | "profile_unavailable";
                            /** Format: date-time */
                            receivedAt: string;
                            repliedAt: string | null;
                            /** @description The platform's id of the reply (comment or message). */
                            replyId: string | null;
                            replyText: string | null;
                            ruleId: string | null;
                        }[];
                        /** @description Pass as cursor for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    exportAutomationTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        /** @description Grows by one with each import that changes the template; 0 before the first. */
                        revision: number;
                        rules: {
                            action: {
                                text: string;
                                /** @enum {string} */
                                type: "reply" | "private_reply";
                            };
                            caps: {
                                perHour: number;
                                perPost: number;
                            };
                            enabled: boolean;
                            id: string;
                            name?: string;
                            platforms?: string[];
                            profileIds?: string[];
                            trigger: {
                                keywords: string[];
                                /** @enum {string} */
                                match: "any" | "all" | "exact";
                            };
                        }[];
                        updatedAt: string | null;
                        /** @constant */
                        version: 1;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    importAutomationTemplate: {
        parameters: {
            query?: {
                dryRun?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Default true; false pauses every rule. */
                    enabled?: boolean;
                    /** @description Read-only: ignored on import. */
                    revision?: number;
                    rules: {
                        action: {
                            /** @description The reply. `{name}` becomes the commenter's name (their username on Instagram and Threads), or "there" when the platform sent none. */
                            text: string;
                            /**
                             * @description reply: a public reply under the comment; private_reply: a private message to the commenter (Instagram and Facebook only).
                             * @enum {string}
                             */
                            type: "reply" | "private_reply";
                        };
                        caps?: {
                            /** @description Most replies this rule sends for one profile in any rolling hour (default 60). */
                            perHour?: number;
                            /** @description Most replies this rule sends under one post (default 25). */
                            perPost?: number;
                        };
                        /** @description Default true. */
                        enabled?: boolean;
                        /** @description Your name for the rule, unique in the template (letters, digits, _ and -). */
                        id: string;
                        name?: string;
                        /** @description Only comments on these platforms (comment sources: instagram, facebook, threads, mastodon, bluesky); omitted: all of them. */
                        platforms?: ("instagram" | "tiktok" | "youtube" | "threads" | "facebook" | "bluesky" | "mastodon" | "linkedin" | "x" | "pinterest")[];
                        /** @description Only comments on these profiles; omitted: every profile of the account. */
                        profileIds?: string[];
                        trigger: {
                            keywords: string[];
                            /**
                             * @description any: one of the keywords; all: every keyword; exact: the whole comment is one of them. Case-insensitive, whole words or phrases.
                             * @enum {string}
                             */
                            match: "any" | "all" | "exact";
                        };
                    }[];
                    /** @description Read-only: ignored on import. */
                    updatedAt?: string | null;
                    /**
                     * @description The template format; this server reads version 1.
                     * @constant
                     */
                    version: 1;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether the import changes (dry run: would change) the stored template. */
                        changed: boolean;
                        changes: {
                            /** @description The fields that differ (template_changed, rule_changed). */
                            fields?: string[];
                            /** @enum {string} */
                            kind: "template_changed" | "rule_added" | "rule_changed" | "rule_removed";
                            ruleId?: string;
                        }[];
                        dryRun: boolean;
                        /** @description The revision after the import (dry run: the one it would get). */
                        revision: number;
                        template: {
                            enabled: boolean;
                            /** @description Grows by one with each import that changes the template; 0 before the first. */
                            revision: number;
                            rules: {
                                action: {
                                    text: string;
                                    /** @enum {string} */
                                    type: "reply" | "private_reply";
                                };
                                caps: {
                                    perHour: number;
                                    perPost: number;
                                };
                                enabled: boolean;
                                id: string;
                                name?: string;
                                platforms?: string[];
                                profileIds?: string[];
                                trigger: {
                                    keywords: string[];
                                    /** @enum {string} */
                                    match: "any" | "all" | "exact";
                                };
                            }[];
                            updatedAt: string | null;
                            /** @constant */
                            version: 1;
                        };
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required`, `profile_scope_denied` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required" | "profile_scope_denied";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getBillingSummary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether the account may use the API now (tester, paid plan, or trial not over). */
                        entitled: boolean;
                        /** @description trial, pro, business, enterprise or expired. */
                        plan: string;
                        planChanges: string;
                        scheduling: {
                            /** Format: date-time */
                            periodEnd: string;
                            /** Format: date-time */
                            periodStart: string;
                            /** @description Posts (one per profile, drafts included) the plan allows per calendar month (UTC). */
                            quota: number;
                            remaining: number;
                            used: number;
                            whenExhausted: string;
                        };
                        storage: {
                            mediaCount: number;
                            quotaBytes: number;
                            remainingBytes: number;
                            usedBytes: number;
                            whenExhausted: string;
                        };
                        /** @description Tester accounts (the beta) may use the API whatever their plan. */
                        tester: boolean;
                        trial: {
                            /** @description Whole days until endsAt, rounded up; 0 once over. */
                            daysLeft: number;
                            /** Format: date-time */
                            endsAt: string;
                            /** @description True while the plan is trial. */
                            onTrial: boolean;
                            /** Format: date-time */
                            startedAt: string;
                            whenOver: string;
                        };
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getCalendar: {
        parameters: {
            query: {
                from: string;
                profileId?: string;
                timezone?: string;
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Every day of the range in order, empty days included. */
                        days: {
                            date: string;
                            posts: {
                                /** @description The first 80 characters of the caption. */
                                caption: string;
                                id: string;
                                /** @description Wall time HH:MM in `timezone`. */
                                local: string;
                                permalink?: string;
                                platform: string;
                                profileId: string;
                                /** Format: date-time */
                                scheduledTime: string;
                                status: string;
                            }[];
                        }[];
                        timezone: string;
                        /** @description True when more than 2000 posts fall in the range; the earliest 2000 are listed. */
                        truncated?: boolean;
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accounts: {
                            /** Format: date-time */
                            connectedAt: string;
                            handle: string;
                            /** @description Profile id, used in profileIds. */
                            id: string;
                            platform: string;
                            profileImageUrl: string | null;
                            profileUrl: string;
                            /** @description active, or needs_reconnect once the platform refused its token for good (statusReason says why). */
                            status: "active" | "needs_reconnect" | "disconnected";
                            statusReason: string | null;
                            /** @description When the platform token expires; it is refreshed ahead of time. */
                            tokenExpiresAt: string | null;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                        count: number;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    platform: "instagram" | "tiktok" | "youtube" | "threads" | "facebook" | "bluesky" | "mastodon" | "linkedin" | "x" | "pinterest";
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Single-use, short-lived link under {base_url}; open it in a browser to finish the OAuth flow. */
                        connectUrl: string;
                        /** Format: date-time */
                        expiresAt: string;
                        platform: string;
                        requestId: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Single-use, short-lived link under {base_url}; open it in a browser to finish the OAuth flow. */
                        connectUrl: string;
                        /** Format: date-time */
                        expiresAt: string;
                        platform: string;
                        requestId: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    deleteConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        connectedAt: string;
                        handle: string;
                        /** @description Profile id, used in profileIds. */
                        id: string;
                        platform: string;
                        profileImageUrl: string | null;
                        profileUrl: string;
                        /** @description active, or needs_reconnect once the platform refused its token for good (statusReason says why). */
                        status: "active" | "needs_reconnect" | "disconnected";
                        statusReason: string | null;
                        /** @description When the platform token expires; it is refreshed ahead of time. */
                        tokenExpiresAt: string | null;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getConnectionHealth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        checkedAt: string;
                        handle: string;
                        platform: string;
                        /** @description What stops or limits publishing now, in words; empty when nothing does. */
                        problems: string[];
                        profileId: string;
                        quota: {
                            /** @description Why the figures are null. */
                            reason: string | null;
                            /** @description Posts the platform still accepts in its rolling window; null when it does not tell. */
                            remaining: number | null;
                            /** @description The platform call the figures come from, e.g. content_publishing_limit. */
                            source: string | null;
                            total: number | null;
                            used: number | null;
                            windowSeconds: number | null;
                        };
                        scopes: {
                            /** @description YouTube: scopes first comments need (youtube.force-ssl) that were not granted; null when the grant is unknown. Publishing works without them; first comments fail. */
                            firstCommentMissing?: string[] | null;
                            /** @description As the platform listed them at connect or refresh; null when it did not say. */
                            granted: string[] | null;
                            /** @description Needed but not granted; null when the grant is unknown. */
                            missing: string[] | null;
                            /** @description What publishing needs. */
                            needed: string[];
                        };
                        status: "active" | "needs_reconnect" | "disconnected";
                        statusReason: string | null;
                        tiktok: {
                            /** @description creator_info offers no PUBLIC_TO_EVERYONE. */
                            accountPrivate: boolean | null;
                            /** @description TIKTOK_CLIENT_AUDITED: whether the app passed TikTok's content-posting audit. */
                            clientAudited: boolean;
                            /** @description creator_info; null when it could not be read. */
                            privacyLevelOptions: string[] | null;
                            /** @description Posts can only be SELF_ONLY: an unaudited client, or creator_info offers nothing else. */
                            selfOnly: boolean;
                        } | null;
                        token: {
                            expired: boolean;
                            /** @description Null: the token does not expire. */
                            expiresAt: string | null;
                            lastRefreshAt: string | null;
                            /** @description Why the last refresh failed; null once one succeeds. */
                            lastRefreshError: string | null;
                            lastRefreshErrorAt: string | null;
                            /** @description When the refresher will renew it; null when it needs no refresh. */
                            nextRefreshAt: string | null;
                        };
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getPinterestBoards: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        boards: {
                            description: string;
                            /** @description Use it as platformMeta.pinterest.boardId. */
                            id: string;
                            name: string;
                            /** @description PUBLIC, PROTECTED or SECRET. */
                            privacy: string;
                        }[];
                        profileId: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getTikTokPostingOptions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description True: comments are off for this creator; disableComment must stay true. */
                        commentDisabled: boolean;
                        /** @description Must be shown to the person posting. */
                        creatorNickname: string;
                        creatorUsername: string;
                        duetDisabled: boolean;
                        /** @description Longest video this creator may post, in seconds. */
                        maxVideoPostDurationSec: number | null;
                        /** @description The privacyLevel values this creator may use. */
                        privacyLevelOptions: string[];
                        profileId: string;
                        stitchDisabled: boolean;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getConnectionRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                requestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completedAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        expiresAt: string;
                        failureReason: string | null;
                        platform: string;
                        /** @description The connected profile once completed. */
                        profileId: string | null;
                        requestId: string;
                        status: "pending" | "completed" | "expired" | "failed";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listMedia: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Items on this page */
                        count: number;
                        media: {
                            /** @description Detected from the bytes, never from the client */
                            contentType: string;
                            createdAt: string;
                            /** @description A failed rendition: why it could not be made */
                            failedReason?: string;
                            mediaId: string;
                            /** @description A rendition: how much of it is made (100 once ready) */
                            percent?: number;
                            /** @description What ffprobe read from the file when it was stored: container, dimensions, duration, codecs; null for media stored before files were probed */
                            probe: {
                                audio?: {
                                    channels: number | null;
                                    /** @description ffprobe codec_name: aac, opus, mp3, … */
                                    codec: string;
                                    sampleRate: number | null;
                                } | null;
                                bitRate: number | null;
                                /** @description ffprobe format_name (mov,mp4,m4a,3gp,3g2,mj2 / matroska,webm / png_pipe / …) */
                                container: string;
                                durationSec: number | null;
                                /** @description Height as displayed, rotation applied */
                                height: number;
                                image?: {
                                    /** @description ffprobe codec_name: mjpeg, png, webp, gif */
                                    format: string;
                                    height: number;
                                    width: number;
                                };
                                kind: "image" | "video";
                                video?: {
                                    bitRate: number | null;
                                    /** @description ffprobe codec_name: h264, hevc, vp9, av1, … */
                                    codec: string;
                                    colorPrimaries: string | null;
                                    colorSpace: string | null;
                                    colorTransfer: string | null;
                                    frameRate: number | null;
                                    /** @description Coded height in pixels (before rotation) */
                                    height: number;
                                    pixelFormat: string | null;
                                    profile: string | null;
                                    /** @description Display rotation in degrees, 0, 90, 180 or 270 (display matrix or rotate tag) */
                                    rotation: number;
                                    /** @description Coded width in pixels (before rotation) */
                                    width: number;
                                };
                                /** @description Width as displayed, rotation applied */
                                width: number;
                            } | null;
                            /** @description Present on a rendition: a copy of another media made to fit one platform (normalize) */
                            rendition?: {
                                /** @description The platform target it fits (facebook.reel, instagram.feed_image, …), `+trim` when cut to length */
                                preset: string;
                                sourceMediaId: string;
                            };
                            sizeBytes: number;
                            /** @description ready | deleted; a rendition is processing until its file is stored, or failed */
                            status: string;
                            /** @description Signed, expiring serve URL under {base_url} */
                            url: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last one */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    uploadMedia: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The image or video, at most 50 MB; its type is read from the bytes
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        mediaId: string;
                        success: boolean;
                        /** @description Signed, expiring serve URL under {base_url} */
                        url: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        mediaId: string;
                        success: boolean;
                        /** @description Signed, expiring serve URL under {base_url} */
                        url: string;
                    };
                };
            };
            /** @description `missing_file`, `validation_error`, `unsupported_media_type` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_file" | "validation_error" | "unsupported_media_type";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required`, `upload_plan_required`, `storage_quota_exceeded` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required" | "upload_plan_required" | "storage_quota_exceeded";
                    };
                };
            };
            /** @description `file_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "file_too_large";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getMedia: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of an earlier answer: 304 without a body while the asset is unchanged (the signed URL of that answer keeps working until its expiry). */
                "If-None-Match"?: string;
            };
            path: {
                mediaId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Detected from the bytes, never from the client */
                        contentType: string;
                        createdAt: string;
                        /** @description A failed rendition: why it could not be made */
                        failedReason?: string;
                        mediaId: string;
                        /** @description A rendition: how much of it is made (100 once ready) */
                        percent?: number;
                        /** @description What ffprobe read from the file when it was stored: container, dimensions, duration, codecs; null for media stored before files were probed */
                        probe: {
                            audio?: {
                                channels: number | null;
                                /** @description ffprobe codec_name: aac, opus, mp3, … */
                                codec: string;
                                sampleRate: number | null;
                            } | null;
                            bitRate: number | null;
                            /** @description ffprobe format_name (mov,mp4,m4a,3gp,3g2,mj2 / matroska,webm / png_pipe / …) */
                            container: string;
                            durationSec: number | null;
                            /** @description Height as displayed, rotation applied */
                            height: number;
                            image?: {
                                /** @description ffprobe codec_name: mjpeg, png, webp, gif */
                                format: string;
                                height: number;
                                width: number;
                            };
                            kind: "image" | "video";
                            video?: {
                                bitRate: number | null;
                                /** @description ffprobe codec_name: h264, hevc, vp9, av1, … */
                                codec: string;
                                colorPrimaries: string | null;
                                colorSpace: string | null;
                                colorTransfer: string | null;
                                frameRate: number | null;
                                /** @description Coded height in pixels (before rotation) */
                                height: number;
                                pixelFormat: string | null;
                                profile: string | null;
                                /** @description Display rotation in degrees, 0, 90, 180 or 270 (display matrix or rotate tag) */
                                rotation: number;
                                /** @description Coded width in pixels (before rotation) */
                                width: number;
                            };
                            /** @description Width as displayed, rotation applied */
                            width: number;
                        } | null;
                        /** @description Present on a rendition: a copy of another media made to fit one platform (normalize) */
                        rendition?: {
                            /** @description The platform target it fits (facebook.reel, instagram.feed_image, …), `+trim` when cut to length */
                            preset: string;
                            sourceMediaId: string;
                        };
                        sizeBytes: number;
                        /** @description ready | deleted; a rendition is processing until its file is stored, or failed */
                        status: string;
                        /** @description Signed, expiring serve URL under {base_url} */
                        url: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    deleteMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                mediaId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deletedAt: string;
                        mediaId: string;
                        /** @constant */
                        status: "deleted";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    importMediaFromUrl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A public http(s) link pointing straight at an image or video file */
                    url: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        contentType: string;
                        mediaId: string;
                        sizeBytes: number;
                        success: boolean;
                        /** @description Signed, expiring serve URL under {base_url} */
                        url: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        contentType: string;
                        mediaId: string;
                        sizeBytes: number;
                        success: boolean;
                        /** @description Signed, expiring serve URL under {base_url} */
                        url: string;
                    };
                };
            };
            /** @description `invalid_json`, `validation_error`, `media_url_not_direct`, `unsupported_media_type` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "invalid_json" | "validation_error" | "media_url_not_direct" | "unsupported_media_type";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required`, `upload_plan_required`, `storage_quota_exceeded` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required" | "upload_plan_required" | "storage_quota_exceeded";
                    };
                };
            };
            /** @description `file_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "file_too_large";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createUploadUrl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Original file name, kept for reference. Example: "launch.mp4". */
                    filename?: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        expiresAt: string;
                        /** @description The largest file this URL takes: 50 MB, or the storage left when that is less */
                        maxBytes: number;
                        /** @description The id the file gets once the PUT is stored: use it as a post's mediaId after that */
                        mediaId: string;
                        /** @constant */
                        method: "PUT";
                        /** @description PUT the raw bytes here, once, before expiresAt, without an Authorization header: the URL is the grant */
                        uploadUrl: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        expiresAt: string;
                        /** @description The largest file this URL takes: 50 MB, or the storage left when that is less */
                        maxBytes: number;
                        /** @description The id the file gets once the PUT is stored: use it as a post's mediaId after that */
                        mediaId: string;
                        /** @constant */
                        method: "PUT";
                        /** @description PUT the raw bytes here, once, before expiresAt, without an Authorization header: the URL is the grant */
                        uploadUrl: string;
                    };
                };
            };
            /** @description `invalid_json`, `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "invalid_json" | "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required`, `upload_plan_required`, `storage_quota_exceeded` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required" | "upload_plan_required" | "storage_quota_exceeded";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listPosts: {
        parameters: {
            query?: {
                category?: string;
                cursor?: string;
                externalId?: string;
                from?: string;
                limit?: string;
                platform?: string;
                profileId?: string;
                status?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            caption: string;
                            category: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            externalId: string | null;
                            failedReason: string | null;
                            /** @description The first comment asked for on this platform and what became of it; null when none was asked for. */
                            firstComment: {
                                failedReason: string | null;
                                permalink: string | null;
                                /** @description pending until the post is published and this is sent; posted or failed after. */
                                status: "pending" | "posted" | "failed";
                                text: string;
                            } | null;
                            id: string;
                            mediaUrls: string[];
                            permalink: string | null;
                            platformMeta: {
                                [key: string]: unknown;
                            } | null;
                            platforms: string[];
                            profileIds: string[];
                            publishedAt: string | null;
                            /** @description Null only for a draft that has no time yet. */
                            scheduledTime: string | null;
                            status: "draft" | "pending_approval" | "rejected" | "scheduled" | "posted" | "failed" | "cancelled";
                            /** @description Threads and X: the chain of replies asked for, in order, and what became of each; empty otherwise. */
                            thread: {
                                failedReason: string | null;
                                permalink: string | null;
                                /** @description pending until the post is published and this is sent; posted or failed after. */
                                status: "pending" | "posted" | "failed";
                                text: string;
                            }[];
                            title: string | null;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description Set when the post went out but not quite as asked (e.g. YouTube kept it private); empty otherwise. */
                            warnings: {
                                /** @description One of youtube_private_lock, tiktok_post_id_pending, bluesky_link_card_skipped, bluesky_link_card_thumb_skipped (more may come). */
                                code: string;
                                /** @description What happened and what to do, in a sentence a person can act on. */
                                message: string;
                            }[];
                        }[];
                        /** @description Pass as cursor for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createPost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption?: string;
                    category?: string;
                    externalId?: string;
                    /** @description A comment (Threads, Bluesky: a reply) published right after the post: one text, or per platform ({ default, instagram, facebook, threads, youtube, bluesky }). At most 2,200 characters on Instagram, 8,000 Facebook, 500 Threads, 10,000 YouTube (needs youtube.force-ssl), 300 graphemes Bluesky. Elsewhere: first_comment_unsupported. */
                    firstComment?: string | {
                        bluesky?: string;
                        default?: string;
                        facebook?: string;
                        instagram?: string;
                        threads?: string;
                        youtube?: string;
                    };
                    mediaId?: string;
                    /** @description Public http(s) links of the media, at most 35 (each platform has its own cap). */
                    mediaUrls?: string[];
                    /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                    normalize?: boolean | {
                        /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                        trim?: boolean;
                    };
                    /** @description Per-platform settings. */
                    platformMeta?: {
                        bluesky?: {
                            /** @description Alt text of each media item, in order (at most 2000 characters each); none for an item: empty. */
                            altTexts?: string[];
                            /** @description Languages of the text as BCP-47 tags (e.g. "en", "pt-BR"), at most 3: Bluesky filters feeds by them. */
                            langs?: string[];
                            /** @description Link card: by default the first link of a post without media; a URL for another page; false for none. Not with media. An unreadable page: no card, warning bluesky_link_card_skipped. */
                            linkCard?: string | false;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                        };
                        facebook?: {
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Publish the video as a reel (start → upload → finish) instead of a Page video. */
                            reel?: boolean;
                        };
                        instagram?: {
                            /**
                             * Format: uri
                             * @description Reel cover image: an http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Whether a reel also appears in the feed. */
                            shareToFeed?: boolean;
                            /** @description Publish the single image or video as a story. */
                            story?: boolean;
                            /** @description Reel cover frame, in ms from the start, when no coverUrl is given. */
                            thumbOffsetMs?: number;
                        };
                        linkedin?: {
                            /** @description Alt text per image, in media order. */
                            altTexts?: string[];
                            /** @description No reshares. */
                            disableReshare?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Video or document title. */
                            title?: string;
                            /** @description Default PUBLIC; CONNECTIONS: members only. */
                            visibility?: "PUBLIC" | "CONNECTIONS" | "LOGGED_IN";
                        };
                        mastodon?: {
                            /** @description Alt text of each media item, in order (at most 1500 characters each). */
                            altTexts?: string[];
                            /** @description ISO 639 language code of the text, e.g. "en". */
                            language?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description A poll instead of media: 2–4 options of at most 50 characters, open 300 s to about a month. */
                            poll?: {
                                /** @description Seconds the poll stays open. */
                                expiresIn: number;
                                multiple?: boolean;
                                options: string[];
                            };
                            /** @description Mark the media as sensitive. */
                            sensitive?: boolean;
                            /** @description Content warning shown before the text (counts toward the character limit). */
                            spoilerText?: string;
                            /** @description public (default), unlisted, private (followers only) or direct. */
                            visibility?: "public" | "unlisted" | "private" | "direct";
                        };
                        pinterest?: {
                            /** @description Alt text. */
                            altText?: string;
                            /** @description Required: a board id of the profile (see its pinterest/boards). */
                            boardId?: string;
                            /** @description A section of the board. */
                            boardSectionId?: string;
                            /**
                             * Format: uri
                             * @description Video cover image.
                             */
                            coverImageUrl?: string;
                            /** @description Video cover frame, in seconds. */
                            coverKeyFrameSeconds?: number;
                            /**
                             * Format: uri
                             * @description Where the pin leads.
                             */
                            link?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description The pin title. */
                            title?: string;
                        };
                        tiktok?: {
                            brandContentOptIn?: boolean;
                            brandOrganicOptIn?: boolean;
                            commercialContentDisclosure?: boolean;
                            disableComment?: boolean;
                            disableDuet?: boolean;
                            disableStitch?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                            videoCoverTimestampMs?: number;
                        };
                        youtube?: {
                            madeForKids?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Default: YOUTUBE_DEFAULT_PRIVACY. */
                            privacyStatus?: "public" | "unlisted" | "private";
                            /**
                             * Format: date-time
                             * @description Scheduled publication on YouTube; needs privacyStatus private.
                             */
                            publishAt?: string;
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            thumbnailUrl?: string;
                        };
                    };
                    /** @description One or more platforms. */
                    platforms: ("instagram" | "tiktok" | "youtube" | "threads" | "facebook" | "bluesky" | "mastodon" | "linkedin" | "x" | "pinterest")[];
                    profileIds?: string[];
                    /** @description Repeat the post: an RFC 5545 RRULE (FREQ=DAILY|WEEKLY|MONTHLY; INTERVAL, BYDAY, COUNT, UNTIL), e.g. "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10", read in timezone from scheduledTime. Each occurrence is a post of its own; the series is at /api/v1/series/{id}. */
                    recurrence?: string;
                    /** @description A schedule id: each profile's post takes that profile's next free slot (instead of scheduledTime). */
                    schedule?: string;
                    /** @description ISO 8601 with Z or an offset, in the future; or a local time without offset together with timezone. */
                    scheduledTime?: string;
                    /** @description Threads, X, Bluesky: up to 20 replies published in order, each under the one before (each at most 500 characters on Threads, 280 weighted on X, 300 graphemes on Bluesky). */
                    thread?: string[];
                    /** @description IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence. */
                    timezone?: string;
                    /** @description Required for TikTok (max 150) and YouTube. */
                    title?: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postIds: string[];
                        /** Format: date-time */
                        scheduledTime: string;
                        /** @description With recurrence: the series; postIds are those of the occurrences created so far (GET /api/v1/series/{id}). */
                        seriesId?: string;
                        /** @description With schedule: the slot each post took (scheduledTime above is the earliest). */
                        slots?: {
                            postId: string;
                            profileId: string;
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        status: string;
                        /** @description The timezone the request named, echoed; scheduledTime is the UTC instant chosen. */
                        timezone?: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postIds: string[];
                        /** Format: date-time */
                        scheduledTime: string;
                        /** @description With recurrence: the series; postIds are those of the occurrences created so far (GET /api/v1/series/{id}). */
                        seriesId?: string;
                        /** @description With schedule: the slot each post took (scheduledTime above is the earliest). */
                        slots?: {
                            postId: string;
                            profileId: string;
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        status: string;
                        /** @description The timezone the request named, echoed; scheduledTime is the UTC instant chosen. */
                        timezone?: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getPost: {
        parameters: {
            query?: {
                timeout?: number;
                waitFor?: "final";
            };
            header?: {
                /** @description The ETag of an earlier answer: 304 without a body while the post is unchanged. */
                "If-None-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        caption: string;
                        category: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        externalId: string | null;
                        failedReason: string | null;
                        /** @description The first comment asked for on this platform and what became of it; null when none was asked for. */
                        firstComment: {
                            failedReason: string | null;
                            permalink: string | null;
                            /** @description pending until the post is published and this is sent; posted or failed after. */
                            status: "pending" | "posted" | "failed";
                            text: string;
                        } | null;
                        id: string;
                        mediaUrls: string[];
                        permalink: string | null;
                        platformMeta: {
                            [key: string]: unknown;
                        } | null;
                        platforms: string[];
                        profileIds: string[];
                        publishedAt: string | null;
                        /** @description Null only for a draft that has no time yet. */
                        scheduledTime: string | null;
                        status: "draft" | "pending_approval" | "rejected" | "scheduled" | "posted" | "failed" | "cancelled";
                        /** @description Threads and X: the chain of replies asked for, in order, and what became of each; empty otherwise. */
                        thread: {
                            failedReason: string | null;
                            permalink: string | null;
                            /** @description pending until the post is published and this is sent; posted or failed after. */
                            status: "pending" | "posted" | "failed";
                            text: string;
                        }[];
                        title: string | null;
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Set when the post went out but not quite as asked (e.g. YouTube kept it private); empty otherwise. */
                        warnings: {
                            /** @description One of youtube_private_lock, tiktok_post_id_pending, bluesky_link_card_skipped, bluesky_link_card_thumb_skipped (more may come). */
                            code: string;
                            /** @description What happened and what to do, in a sentence a person can act on. */
                            message: string;
                        }[];
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    cancelPost: {
        parameters: {
            query?: {
                reshuffle?: "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        caption: string;
                        category: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        externalId: string | null;
                        failedReason: string | null;
                        /** @description The first comment asked for on this platform and what became of it; null when none was asked for. */
                        firstComment: {
                            failedReason: string | null;
                            permalink: string | null;
                            /** @description pending until the post is published and this is sent; posted or failed after. */
                            status: "pending" | "posted" | "failed";
                            text: string;
                        } | null;
                        id: string;
                        mediaUrls: string[];
                        permalink: string | null;
                        platformMeta: {
                            [key: string]: unknown;
                        } | null;
                        platforms: string[];
                        profileIds: string[];
                        publishedAt: string | null;
                        /** @description With ?reshuffle=true: the later queued posts moved up into the freed slot, in slot order (empty when none moved). */
                        reshuffled?: {
                            /** Format: date-time */
                            from: string;
                            postId: string;
                            /** Format: date-time */
                            to: string;
                        }[];
                        /** @description Null only for a draft that has no time yet. */
                        scheduledTime: string | null;
                        status: "draft" | "pending_approval" | "rejected" | "scheduled" | "posted" | "failed" | "cancelled";
                        /** @description Threads and X: the chain of replies asked for, in order, and what became of each; empty otherwise. */
                        thread: {
                            failedReason: string | null;
                            permalink: string | null;
                            /** @description pending until the post is published and this is sent; posted or failed after. */
                            status: "pending" | "posted" | "failed";
                            text: string;
                        }[];
                        title: string | null;
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Set when the post went out but not quite as asked (e.g. YouTube kept it private); empty otherwise. */
                        warnings: {
                            /** @description One of youtube_private_lock, tiktok_post_id_pending, bluesky_link_card_skipped, bluesky_link_card_thumb_skipped (more may come). */
                            code: string;
                            /** @description What happened and what to do, in a sentence a person can act on. */
                            message: string;
                        }[];
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    updatePost: {
        parameters: {
            query?: {
                reshuffle?: "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption?: string;
                    category?: string;
                    mediaId?: string;
                    /** @description Public http(s) links of the media, at most 35 (each platform has its own cap). */
                    mediaUrls?: string[];
                    /** @description Per-platform settings. */
                    platformMeta?: {
                        bluesky?: {
                            /** @description Alt text of each media item, in order (at most 2000 characters each); none for an item: empty. */
                            altTexts?: string[];
                            /** @description Languages of the text as BCP-47 tags (e.g. "en", "pt-BR"), at most 3: Bluesky filters feeds by them. */
                            langs?: string[];
                            /** @description Link card: by default the first link of a post without media; a URL for another page; false for none. Not with media. An unreadable page: no card, warning bluesky_link_card_skipped. */
                            linkCard?: string | false;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                        };
                        facebook?: {
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Publish the video as a reel (start → upload → finish) instead of a Page video. */
                            reel?: boolean;
                        };
                        instagram?: {
                            /**
                             * Format: uri
                             * @description Reel cover image: an http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Whether a reel also appears in the feed. */
                            shareToFeed?: boolean;
                            /** @description Publish the single image or video as a story. */
                            story?: boolean;
                            /** @description Reel cover frame, in ms from the start, when no coverUrl is given. */
                            thumbOffsetMs?: number;
                        };
                        linkedin?: {
                            /** @description Alt text per image, in media order. */
                            altTexts?: string[];
                            /** @description No reshares. */
                            disableReshare?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Video or document title. */
                            title?: string;
                            /** @description Default PUBLIC; CONNECTIONS: members only. */
                            visibility?: "PUBLIC" | "CONNECTIONS" | "LOGGED_IN";
                        };
                        mastodon?: {
                            /** @description Alt text of each media item, in order (at most 1500 characters each). */
                            altTexts?: string[];
                            /** @description ISO 639 language code of the text, e.g. "en". */
                            language?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description A poll instead of media: 2–4 options of at most 50 characters, open 300 s to about a month. */
                            poll?: {
                                /** @description Seconds the poll stays open. */
                                expiresIn: number;
                                multiple?: boolean;
                                options: string[];
                            };
                            /** @description Mark the media as sensitive. */
                            sensitive?: boolean;
                            /** @description Content warning shown before the text (counts toward the character limit). */
                            spoilerText?: string;
                            /** @description public (default), unlisted, private (followers only) or direct. */
                            visibility?: "public" | "unlisted" | "private" | "direct";
                        };
                        pinterest?: {
                            /** @description Alt text. */
                            altText?: string;
                            /** @description Required: a board id of the profile (see its pinterest/boards). */
                            boardId?: string;
                            /** @description A section of the board. */
                            boardSectionId?: string;
                            /**
                             * Format: uri
                             * @description Video cover image.
                             */
                            coverImageUrl?: string;
                            /** @description Video cover frame, in seconds. */
                            coverKeyFrameSeconds?: number;
                            /**
                             * Format: uri
                             * @description Where the pin leads.
                             */
                            link?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description The pin title. */
                            title?: string;
                        };
                        tiktok?: {
                            brandContentOptIn?: boolean;
                            brandOrganicOptIn?: boolean;
                            commercialContentDisclosure?: boolean;
                            disableComment?: boolean;
                            disableDuet?: boolean;
                            disableStitch?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                            videoCoverTimestampMs?: number;
                        };
                        youtube?: {
                            madeForKids?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Default: YOUTUBE_DEFAULT_PRIVACY. */
                            privacyStatus?: "public" | "unlisted" | "private";
                            /**
                             * Format: date-time
                             * @description Scheduled publication on YouTube; needs privacyStatus private.
                             */
                            publishAt?: string;
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            thumbnailUrl?: string;
                        };
                    };
                    /** @description ISO 8601 with Z or an offset (or a local time without offset together with timezone), in the future. Setting it on a draft schedules the draft. */
                    scheduledTime?: string;
                    /** @description IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence. */
                    timezone?: string;
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        caption: string;
                        category: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        externalId: string | null;
                        failedReason: string | null;
                        /** @description The first comment asked for on this platform and what became of it; null when none was asked for. */
                        firstComment: {
                            failedReason: string | null;
                            permalink: string | null;
                            /** @description pending until the post is published and this is sent; posted or failed after. */
                            status: "pending" | "posted" | "failed";
                            text: string;
                        } | null;
                        id: string;
                        mediaUrls: string[];
                        permalink: string | null;
                        platformMeta: {
                            [key: string]: unknown;
                        } | null;
                        platforms: string[];
                        profileIds: string[];
                        publishedAt: string | null;
                        /** @description With ?reshuffle=true: the later queued posts moved up into the freed slot, in slot order (empty when none moved). */
                        reshuffled?: {
                            /** Format: date-time */
                            from: string;
                            postId: string;
                            /** Format: date-time */
                            to: string;
                        }[];
                        /** @description Null only for a draft that has no time yet. */
                        scheduledTime: string | null;
                        status: "draft" | "pending_approval" | "rejected" | "scheduled" | "posted" | "failed" | "cancelled";
                        /** @description Threads and X: the chain of replies asked for, in order, and what became of each; empty otherwise. */
                        thread: {
                            failedReason: string | null;
                            permalink: string | null;
                            /** @description pending until the post is published and this is sent; posted or failed after. */
                            status: "pending" | "posted" | "failed";
                            text: string;
                        }[];
                        title: string | null;
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Set when the post went out but not quite as asked (e.g. YouTube kept it private); empty otherwise. */
                        warnings: {
                            /** @description One of youtube_private_lock, tiktok_post_id_pending, bluesky_link_card_skipped, bluesky_link_card_thumb_skipped (more may come). */
                            code: string;
                            /** @description What happened and what to do, in a sentence a person can act on. */
                            message: string;
                        }[];
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Page under {base_url} to approve or reject; null once decided or expired. */
                        approvalUrl: string | null;
                        decidedAt: string | null;
                        decision: "pending" | "approved" | "rejected" | "expired" | "cancelled";
                        /** Format: date-time */
                        expiresAt: string;
                        postId: string;
                        /** Format: date-time */
                        requestedAt: string;
                        /** @description The post's status. */
                        status: "draft" | "pending_approval" | "rejected" | "scheduled" | "posted" | "failed" | "cancelled";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    requestApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Page under {base_url} to approve or reject; null once decided or expired. */
                        approvalUrl: string | null;
                        decidedAt: string | null;
                        decision: "pending" | "approved" | "rejected" | "expired" | "cancelled";
                        /** Format: date-time */
                        expiresAt: string;
                        postId: string;
                        /** Format: date-time */
                        requestedAt: string;
                        /** @description The post's status. */
                        status: "draft" | "pending_approval" | "rejected" | "scheduled" | "posted" | "failed" | "cancelled";
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Page under {base_url} to approve or reject; null once decided or expired. */
                        approvalUrl: string | null;
                        decidedAt: string | null;
                        decision: "pending" | "approved" | "rejected" | "expired" | "cancelled";
                        /** Format: date-time */
                        expiresAt: string;
                        postId: string;
                        /** Format: date-time */
                        requestedAt: string;
                        /** @description The post's status. */
                        status: "draft" | "pending_approval" | "rejected" | "scheduled" | "posted" | "failed" | "cancelled";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    bulkCreatePosts: {
        parameters: {
            query?: {
                atomic?: string;
                dryRun?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption?: string;
                    category?: string;
                    externalId?: string;
                    /** @description A comment (Threads, Bluesky: a reply) published right after the post: one text, or per platform ({ default, instagram, facebook, threads, youtube, bluesky }). At most 2,200 characters on Instagram, 8,000 Facebook, 500 Threads, 10,000 YouTube (needs youtube.force-ssl), 300 graphemes Bluesky. Elsewhere: first_comment_unsupported. */
                    firstComment?: string | {
                        bluesky?: string;
                        default?: string;
                        facebook?: string;
                        instagram?: string;
                        threads?: string;
                        youtube?: string;
                    };
                    mediaId?: string;
                    /** @description Public http(s) links of the media, at most 35 (each platform has its own cap). */
                    mediaUrls?: string[];
                    /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                    normalize?: boolean | {
                        /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                        trim?: boolean;
                    };
                    /** @description Per-platform settings. */
                    platformMeta?: {
                        bluesky?: {
                            /** @description Alt text of each media item, in order (at most 2000 characters each); none for an item: empty. */
                            altTexts?: string[];
                            /** @description Languages of the text as BCP-47 tags (e.g. "en", "pt-BR"), at most 3: Bluesky filters feeds by them. */
                            langs?: string[];
                            /** @description Link card: by default the first link of a post without media; a URL for another page; false for none. Not with media. An unreadable page: no card, warning bluesky_link_card_skipped. */
                            linkCard?: string | false;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                        };
                        facebook?: {
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Publish the video as a reel (start → upload → finish) instead of a Page video. */
                            reel?: boolean;
                        };
                        instagram?: {
                            /**
                             * Format: uri
                             * @description Reel cover image: an http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Whether a reel also appears in the feed. */
                            shareToFeed?: boolean;
                            /** @description Publish the single image or video as a story. */
                            story?: boolean;
                            /** @description Reel cover frame, in ms from the start, when no coverUrl is given. */
                            thumbOffsetMs?: number;
                        };
                        linkedin?: {
                            /** @description Alt text per image, in media order. */
                            altTexts?: string[];
                            /** @description No reshares. */
                            disableReshare?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Video or document title. */
                            title?: string;
                            /** @description Default PUBLIC; CONNECTIONS: members only. */
                            visibility?: "PUBLIC" | "CONNECTIONS" | "LOGGED_IN";
                        };
                        mastodon?: {
                            /** @description Alt text of each media item, in order (at most 1500 characters each). */
                            altTexts?: string[];
                            /** @description ISO 639 language code of the text, e.g. "en". */
                            language?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description A poll instead of media: 2–4 options of at most 50 characters, open 300 s to about a month. */
                            poll?: {
                                /** @description Seconds the poll stays open. */
                                expiresIn: number;
                                multiple?: boolean;
                                options: string[];
                            };
                            /** @description Mark the media as sensitive. */
                            sensitive?: boolean;
                            /** @description Content warning shown before the text (counts toward the character limit). */
                            spoilerText?: string;
                            /** @description public (default), unlisted, private (followers only) or direct. */
                            visibility?: "public" | "unlisted" | "private" | "direct";
                        };
                        pinterest?: {
                            /** @description Alt text. */
                            altText?: string;
                            /** @description Required: a board id of the profile (see its pinterest/boards). */
                            boardId?: string;
                            /** @description A section of the board. */
                            boardSectionId?: string;
                            /**
                             * Format: uri
                             * @description Video cover image.
                             */
                            coverImageUrl?: string;
                            /** @description Video cover frame, in seconds. */
                            coverKeyFrameSeconds?: number;
                            /**
                             * Format: uri
                             * @description Where the pin leads.
                             */
                            link?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description The pin title. */
                            title?: string;
                        };
                        tiktok?: {
                            brandContentOptIn?: boolean;
                            brandOrganicOptIn?: boolean;
                            commercialContentDisclosure?: boolean;
                            disableComment?: boolean;
                            disableDuet?: boolean;
                            disableStitch?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                            videoCoverTimestampMs?: number;
                        };
                        youtube?: {
                            madeForKids?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Default: YOUTUBE_DEFAULT_PRIVACY. */
                            privacyStatus?: "public" | "unlisted" | "private";
                            /**
                             * Format: date-time
                             * @description Scheduled publication on YouTube; needs privacyStatus private.
                             */
                            publishAt?: string;
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            thumbnailUrl?: string;
                        };
                    };
                    /** @description One or more platforms. */
                    platforms: ("instagram" | "tiktok" | "youtube" | "threads" | "facebook" | "bluesky" | "mastodon" | "linkedin" | "x" | "pinterest")[];
                    profileIds?: string[];
                    /** @description Repeat the post: an RFC 5545 RRULE (FREQ=DAILY|WEEKLY|MONTHLY; INTERVAL, BYDAY, COUNT, UNTIL), e.g. "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10", read in timezone from scheduledTime. Each occurrence is a post of its own; the series is at /api/v1/series/{id}. */
                    recurrence?: string;
                    /** @description A schedule id: each profile's post takes that profile's next free slot (instead of scheduledTime). */
                    schedule?: string;
                    /** @description ISO 8601 with Z or an offset, in the future; or a local time without offset together with timezone. */
                    scheduledTime?: string;
                    /** @description Threads, X, Bluesky: up to 20 replies published in order, each under the one before (each at most 500 characters on Threads, 280 weighted on X, 300 graphemes on Bluesky). */
                    thread?: string[];
                    /** @description IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence. */
                    timezone?: string;
                    /** @description Required for TikTok (max 150) and YouTube. */
                    title?: string;
                }[];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: ({
                            postIds: string[];
                            /** @description 1-based row (CSV: record after the header). */
                            row: number;
                        } | {
                            code: string;
                            error: string;
                            field?: string;
                            row: number;
                        })[];
                        /** @description False when nothing was stored: dryRun, or atomic with a refused row. */
                        stored: boolean;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createDraft: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption?: string;
                    category?: string;
                    externalId?: string;
                    /** @description A comment (Threads, Bluesky: a reply) published right after the post: one text, or per platform ({ default, instagram, facebook, threads, youtube, bluesky }). At most 2,200 characters on Instagram, 8,000 Facebook, 500 Threads, 10,000 YouTube (needs youtube.force-ssl), 300 graphemes Bluesky. Elsewhere: first_comment_unsupported. */
                    firstComment?: string | {
                        bluesky?: string;
                        default?: string;
                        facebook?: string;
                        instagram?: string;
                        threads?: string;
                        youtube?: string;
                    };
                    mediaId?: string;
                    /** @description Public http(s) links of the media, at most 35 (each platform has its own cap). */
                    mediaUrls?: string[];
                    /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                    normalize?: boolean | {
                        /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                        trim?: boolean;
                    };
                    /** @description Per-platform settings. */
                    platformMeta?: {
                        bluesky?: {
                            /** @description Alt text of each media item, in order (at most 2000 characters each); none for an item: empty. */
                            altTexts?: string[];
                            /** @description Languages of the text as BCP-47 tags (e.g. "en", "pt-BR"), at most 3: Bluesky filters feeds by them. */
                            langs?: string[];
                            /** @description Link card: by default the first link of a post without media; a URL for another page; false for none. Not with media. An unreadable page: no card, warning bluesky_link_card_skipped. */
                            linkCard?: string | false;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                        };
                        facebook?: {
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Publish the video as a reel (start → upload → finish) instead of a Page video. */
                            reel?: boolean;
                        };
                        instagram?: {
                            /**
                             * Format: uri
                             * @description Reel cover image: an http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Whether a reel also appears in the feed. */
                            shareToFeed?: boolean;
                            /** @description Publish the single image or video as a story. */
                            story?: boolean;
                            /** @description Reel cover frame, in ms from the start, when no coverUrl is given. */
                            thumbOffsetMs?: number;
                        };
                        linkedin?: {
                            /** @description Alt text per image, in media order. */
                            altTexts?: string[];
                            /** @description No reshares. */
                            disableReshare?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Video or document title. */
                            title?: string;
                            /** @description Default PUBLIC; CONNECTIONS: members only. */
                            visibility?: "PUBLIC" | "CONNECTIONS" | "LOGGED_IN";
                        };
                        mastodon?: {
                            /** @description Alt text of each media item, in order (at most 1500 characters each). */
                            altTexts?: string[];
                            /** @description ISO 639 language code of the text, e.g. "en". */
                            language?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description A poll instead of media: 2–4 options of at most 50 characters, open 300 s to about a month. */
                            poll?: {
                                /** @description Seconds the poll stays open. */
                                expiresIn: number;
                                multiple?: boolean;
                                options: string[];
                            };
                            /** @description Mark the media as sensitive. */
                            sensitive?: boolean;
                            /** @description Content warning shown before the text (counts toward the character limit). */
                            spoilerText?: string;
                            /** @description public (default), unlisted, private (followers only) or direct. */
                            visibility?: "public" | "unlisted" | "private" | "direct";
                        };
                        pinterest?: {
                            /** @description Alt text. */
                            altText?: string;
                            /** @description Required: a board id of the profile (see its pinterest/boards). */
                            boardId?: string;
                            /** @description A section of the board. */
                            boardSectionId?: string;
                            /**
                             * Format: uri
                             * @description Video cover image.
                             */
                            coverImageUrl?: string;
                            /** @description Video cover frame, in seconds. */
                            coverKeyFrameSeconds?: number;
                            /**
                             * Format: uri
                             * @description Where the pin leads.
                             */
                            link?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description The pin title. */
                            title?: string;
                        };
                        tiktok?: {
                            brandContentOptIn?: boolean;
                            brandOrganicOptIn?: boolean;
                            commercialContentDisclosure?: boolean;
                            disableComment?: boolean;
                            disableDuet?: boolean;
                            disableStitch?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                            videoCoverTimestampMs?: number;
                        };
                        youtube?: {
                            madeForKids?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Default: YOUTUBE_DEFAULT_PRIVACY. */
                            privacyStatus?: "public" | "unlisted" | "private";
                            /**
                             * Format: date-time
                             * @description Scheduled publication on YouTube; needs privacyStatus private.
                             */
                            publishAt?: string;
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            thumbnailUrl?: string;
                        };
                    };
                    /** @description One or more platforms. */
                    platforms: ("instagram" | "tiktok" | "youtube" | "threads" | "facebook" | "bluesky" | "mastodon" | "linkedin" | "x" | "pinterest")[];
                    profileIds?: string[];
                    /** @description Repeat the post: an RFC 5545 RRULE (FREQ=DAILY|WEEKLY|MONTHLY; INTERVAL, BYDAY, COUNT, UNTIL), e.g. "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10", read in timezone from scheduledTime. Each occurrence is a post of its own; the series is at /api/v1/series/{id}. */
                    recurrence?: string;
                    /** @description A schedule id: each profile's post takes that profile's next free slot (instead of scheduledTime). */
                    schedule?: string;
                    /** @description ISO 8601 with Z or an offset, in the future; or a local time without offset together with timezone. */
                    scheduledTime?: string;
                    /** @description Threads, X, Bluesky: up to 20 replies published in order, each under the one before (each at most 500 characters on Threads, 280 weighted on X, 300 graphemes on Bluesky). */
                    thread?: string[];
                    /** @description IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence. */
                    timezone?: string;
                    /** @description Required for TikTok (max 150) and YouTube. */
                    title?: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postIds: string[];
                        scheduledTime: string | null;
                        /** @constant */
                        status: "draft";
                        /** @description The timezone the request named, echoed; scheduledTime is the UTC instant chosen. */
                        timezone?: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postIds: string[];
                        scheduledTime: string | null;
                        /** @constant */
                        status: "draft";
                        /** @description The timezone the request named, echoed; scheduledTime is the UTC instant chosen. */
                        timezone?: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    exportPosts: {
        parameters: {
            query?: {
                category?: string;
                format?: "csv" | "json";
                from?: string;
                platform?: string;
                profileId?: string;
                status?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        caption: string;
                        category: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        externalId: string | null;
                        failedReason: string | null;
                        /** @description The first comment asked for on this platform and what became of it; null when none was asked for. */
                        firstComment: {
                            failedReason: string | null;
                            permalink: string | null;
                            /** @description pending until the post is published and this is sent; posted or failed after. */
                            status: "pending" | "posted" | "failed";
                            text: string;
                        } | null;
                        id: string;
                        mediaUrls: string[];
                        permalink: string | null;
                        platformMeta: {
                            [key: string]: unknown;
                        } | null;
                        platforms: string[];
                        profileIds: string[];
                        publishedAt: string | null;
                        /** @description Null only for a draft that has no time yet. */
                        scheduledTime: string | null;
                        status: "draft" | "pending_approval" | "rejected" | "scheduled" | "posted" | "failed" | "cancelled";
                        /** @description Threads and X: the chain of replies asked for, in order, and what became of each; empty otherwise. */
                        thread: {
                            failedReason: string | null;
                            permalink: string | null;
                            /** @description pending until the post is published and this is sent; posted or failed after. */
                            status: "pending" | "posted" | "failed";
                            text: string;
                        }[];
                        title: string | null;
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Set when the post went out but not quite as asked (e.g. YouTube kept it private); empty otherwise. */
                        warnings: {
                            /** @description One of youtube_private_lock, tiktok_post_id_pending, bluesky_link_card_skipped, bluesky_link_card_thumb_skipped (more may come). */
                            code: string;
                            /** @description What happened and what to do, in a sentence a person can act on. */
                            message: string;
                        }[];
                    }[];
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    schedulePost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption?: string;
                    category?: string;
                    externalId?: string;
                    /** @description A comment (Threads, Bluesky: a reply) published right after the post: one text, or per platform ({ default, instagram, facebook, threads, youtube, bluesky }). At most 2,200 characters on Instagram, 8,000 Facebook, 500 Threads, 10,000 YouTube (needs youtube.force-ssl), 300 graphemes Bluesky. Elsewhere: first_comment_unsupported. */
                    firstComment?: string | {
                        bluesky?: string;
                        default?: string;
                        facebook?: string;
                        instagram?: string;
                        threads?: string;
                        youtube?: string;
                    };
                    mediaId?: string;
                    /** @description Public http(s) links of the media, at most 35 (each platform has its own cap). */
                    mediaUrls?: string[];
                    /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                    normalize?: boolean | {
                        /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                        trim?: boolean;
                    };
                    /** @description Per-platform settings. */
                    platformMeta?: {
                        bluesky?: {
                            /** @description Alt text of each media item, in order (at most 2000 characters each); none for an item: empty. */
                            altTexts?: string[];
                            /** @description Languages of the text as BCP-47 tags (e.g. "en", "pt-BR"), at most 3: Bluesky filters feeds by them. */
                            langs?: string[];
                            /** @description Link card: by default the first link of a post without media; a URL for another page; false for none. Not with media. An unreadable page: no card, warning bluesky_link_card_skipped. */
                            linkCard?: string | false;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                        };
                        facebook?: {
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Publish the video as a reel (start → upload → finish) instead of a Page video. */
                            reel?: boolean;
                        };
                        instagram?: {
                            /**
                             * Format: uri
                             * @description Reel cover image: an http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Whether a reel also appears in the feed. */
                            shareToFeed?: boolean;
                            /** @description Publish the single image or video as a story. */
                            story?: boolean;
                            /** @description Reel cover frame, in ms from the start, when no coverUrl is given. */
                            thumbOffsetMs?: number;
                        };
                        linkedin?: {
                            /** @description Alt text per image, in media order. */
                            altTexts?: string[];
                            /** @description No reshares. */
                            disableReshare?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Video or document title. */
                            title?: string;
                            /** @description Default PUBLIC; CONNECTIONS: members only. */
                            visibility?: "PUBLIC" | "CONNECTIONS" | "LOGGED_IN";
                        };
                        mastodon?: {
                            /** @description Alt text of each media item, in order (at most 1500 characters each). */
                            altTexts?: string[];
                            /** @description ISO 639 language code of the text, e.g. "en". */
                            language?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description A poll instead of media: 2–4 options of at most 50 characters, open 300 s to about a month. */
                            poll?: {
                                /** @description Seconds the poll stays open. */
                                expiresIn: number;
                                multiple?: boolean;
                                options: string[];
                            };
                            /** @description Mark the media as sensitive. */
                            sensitive?: boolean;
                            /** @description Content warning shown before the text (counts toward the character limit). */
                            spoilerText?: string;
                            /** @description public (default), unlisted, private (followers only) or direct. */
                            visibility?: "public" | "unlisted" | "private" | "direct";
                        };
                        pinterest?: {
                            /** @description Alt text. */
                            altText?: string;
                            /** @description Required: a board id of the profile (see its pinterest/boards). */
                            boardId?: string;
                            /** @description A section of the board. */
                            boardSectionId?: string;
                            /**
                             * Format: uri
                             * @description Video cover image.
                             */
                            coverImageUrl?: string;
                            /** @description Video cover frame, in seconds. */
                            coverKeyFrameSeconds?: number;
                            /**
                             * Format: uri
                             * @description Where the pin leads.
                             */
                            link?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description The pin title. */
                            title?: string;
                        };
                        tiktok?: {
                            brandContentOptIn?: boolean;
                            brandOrganicOptIn?: boolean;
                            commercialContentDisclosure?: boolean;
                            disableComment?: boolean;
                            disableDuet?: boolean;
                            disableStitch?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                            videoCoverTimestampMs?: number;
                        };
                        youtube?: {
                            madeForKids?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Default: YOUTUBE_DEFAULT_PRIVACY. */
                            privacyStatus?: "public" | "unlisted" | "private";
                            /**
                             * Format: date-time
                             * @description Scheduled publication on YouTube; needs privacyStatus private.
                             */
                            publishAt?: string;
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            thumbnailUrl?: string;
                        };
                    };
                    /** @description One or more platforms. */
                    platforms: ("instagram" | "tiktok" | "youtube" | "threads" | "facebook" | "bluesky" | "mastodon" | "linkedin" | "x" | "pinterest")[];
                    profileIds?: string[];
                    /** @description Repeat the post: an RFC 5545 RRULE (FREQ=DAILY|WEEKLY|MONTHLY; INTERVAL, BYDAY, COUNT, UNTIL), e.g. "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10", read in timezone from scheduledTime. Each occurrence is a post of its own; the series is at /api/v1/series/{id}. */
                    recurrence?: string;
                    /** @description A schedule id: each profile's post takes that profile's next free slot (instead of scheduledTime). */
                    schedule?: string;
                    /** @description ISO 8601 with Z or an offset, in the future; or a local time without offset together with timezone. */
                    scheduledTime?: string;
                    /** @description Threads, X, Bluesky: up to 20 replies published in order, each under the one before (each at most 500 characters on Threads, 280 weighted on X, 300 graphemes on Bluesky). */
                    thread?: string[];
                    /** @description IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence. */
                    timezone?: string;
                    /** @description Required for TikTok (max 150) and YouTube. */
                    title?: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postIds: string[];
                        /** Format: date-time */
                        scheduledTime: string;
                        /** @description With recurrence: the series; postIds are those of the occurrences created so far (GET /api/v1/series/{id}). */
                        seriesId?: string;
                        /** @description With schedule: the slot each post took (scheduledTime above is the earliest). */
                        slots?: {
                            postId: string;
                            profileId: string;
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        status: string;
                        /** @description The timezone the request named, echoed; scheduledTime is the UTC instant chosen. */
                        timezone?: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postIds: string[];
                        /** Format: date-time */
                        scheduledTime: string;
                        /** @description With recurrence: the series; postIds are those of the occurrences created so far (GET /api/v1/series/{id}). */
                        seriesId?: string;
                        /** @description With schedule: the slot each post took (scheduledTime above is the earliest). */
                        slots?: {
                            postId: string;
                            profileId: string;
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        status: string;
                        /** @description The timezone the request named, echoed; scheduledTime is the UTC instant chosen. */
                        timezone?: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    validatePost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption?: string;
                    category?: string;
                    externalId?: string;
                    /** @description A comment (Threads, Bluesky: a reply) published right after the post: one text, or per platform ({ default, instagram, facebook, threads, youtube, bluesky }). At most 2,200 characters on Instagram, 8,000 Facebook, 500 Threads, 10,000 YouTube (needs youtube.force-ssl), 300 graphemes Bluesky. Elsewhere: first_comment_unsupported. */
                    firstComment?: string | {
                        bluesky?: string;
                        default?: string;
                        facebook?: string;
                        instagram?: string;
                        threads?: string;
                        youtube?: string;
                    };
                    mediaId?: string;
                    /** @description Public http(s) links of the media, at most 35 (each platform has its own cap). */
                    mediaUrls?: string[];
                    /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                    normalize?: boolean | {
                        /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                        trim?: boolean;
                    };
                    /** @description Per-platform settings. */
                    platformMeta?: {
                        bluesky?: {
                            /** @description Alt text of each media item, in order (at most 2000 characters each); none for an item: empty. */
                            altTexts?: string[];
                            /** @description Languages of the text as BCP-47 tags (e.g. "en", "pt-BR"), at most 3: Bluesky filters feeds by them. */
                            langs?: string[];
                            /** @description Link card: by default the first link of a post without media; a URL for another page; false for none. Not with media. An unreadable page: no card, warning bluesky_link_card_skipped. */
                            linkCard?: string | false;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                        };
                        facebook?: {
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Publish the video as a reel (start → upload → finish) instead of a Page video. */
                            reel?: boolean;
                        };
                        instagram?: {
                            /**
                             * Format: uri
                             * @description Reel cover image: an http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Whether a reel also appears in the feed. */
                            shareToFeed?: boolean;
                            /** @description Publish the single image or video as a story. */
                            story?: boolean;
                            /** @description Reel cover frame, in ms from the start, when no coverUrl is given. */
                            thumbOffsetMs?: number;
                        };
                        linkedin?: {
                            /** @description Alt text per image, in media order. */
                            altTexts?: string[];
                            /** @description No reshares. */
                            disableReshare?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Video or document title. */
                            title?: string;
                            /** @description Default PUBLIC; CONNECTIONS: members only. */
                            visibility?: "PUBLIC" | "CONNECTIONS" | "LOGGED_IN";
                        };
                        mastodon?: {
                            /** @description Alt text of each media item, in order (at most 1500 characters each). */
                            altTexts?: string[];
                            /** @description ISO 639 language code of the text, e.g. "en". */
                            language?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description A poll instead of media: 2–4 options of at most 50 characters, open 300 s to about a month. */
                            poll?: {
                                /** @description Seconds the poll stays open. */
                                expiresIn: number;
                                multiple?: boolean;
                                options: string[];
                            };
                            /** @description Mark the media as sensitive. */
                            sensitive?: boolean;
                            /** @description Content warning shown before the text (counts toward the character limit). */
                            spoilerText?: string;
                            /** @description public (default), unlisted, private (followers only) or direct. */
                            visibility?: "public" | "unlisted" | "private" | "direct";
                        };
                        pinterest?: {
                            /** @description Alt text. */
                            altText?: string;
                            /** @description Required: a board id of the profile (see its pinterest/boards). */
                            boardId?: string;
                            /** @description A section of the board. */
                            boardSectionId?: string;
                            /**
                             * Format: uri
                             * @description Video cover image.
                             */
                            coverImageUrl?: string;
                            /** @description Video cover frame, in seconds. */
                            coverKeyFrameSeconds?: number;
                            /**
                             * Format: uri
                             * @description Where the pin leads.
                             */
                            link?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description The pin title. */
                            title?: string;
                        };
                        tiktok?: {
                            brandContentOptIn?: boolean;
                            brandOrganicOptIn?: boolean;
                            commercialContentDisclosure?: boolean;
                            disableComment?: boolean;
                            disableDuet?: boolean;
                            disableStitch?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                            videoCoverTimestampMs?: number;
                        };
                        youtube?: {
                            madeForKids?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Default: YOUTUBE_DEFAULT_PRIVACY. */
                            privacyStatus?: "public" | "unlisted" | "private";
                            /**
                             * Format: date-time
                             * @description Scheduled publication on YouTube; needs privacyStatus private.
                             */
                            publishAt?: string;
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            thumbnailUrl?: string;
                        };
                    };
                    /** @description One or more platforms. */
                    platforms: ("instagram" | "tiktok" | "youtube" | "threads" | "facebook" | "bluesky" | "mastodon" | "linkedin" | "x" | "pinterest")[];
                    profileIds?: string[];
                    /** @description Repeat the post: an RFC 5545 RRULE (FREQ=DAILY|WEEKLY|MONTHLY; INTERVAL, BYDAY, COUNT, UNTIL), e.g. "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10", read in timezone from scheduledTime. Each occurrence is a post of its own; the series is at /api/v1/series/{id}. */
                    recurrence?: string;
                    /** @description A schedule id: each profile's post takes that profile's next free slot (instead of scheduledTime). */
                    schedule?: string;
                    /** @description ISO 8601 with Z or an offset, in the future; or a local time without offset together with timezone. */
                    scheduledTime?: string;
                    /** @description Threads, X, Bluesky: up to 20 replies published in order, each under the one before (each at most 500 characters on Threads, 280 weighted on X, 300 graphemes on Bluesky). */
                    thread?: string[];
                    /** @description IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence. */
                    timezone?: string;
                    /** @description Required for TikTok (max 150) and YouTube. */
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        problems: {
                            code: string;
                            field?: string;
                            /** @description media_incompatible: what the platform takes */
                            limit?: unknown;
                            /** @description media_incompatible: what the media has */
                            measured?: unknown;
                            message: string;
                            platform?: string;
                            /** @description media_incompatible: the platform media rule broken (duration, aspect_ratio, video_codec, …) */
                            rule?: string;
                        }[];
                        valid: boolean;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProfiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        profiles: {
                            handle: string;
                            /** @description Use it in profileIds. */
                            id: string;
                            platform: string;
                            status: string;
                        }[];
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    publishPost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption?: string;
                    category?: string;
                    externalId?: string;
                    /** @description A comment (Threads, Bluesky: a reply) published right after the post: one text, or per platform ({ default, instagram, facebook, threads, youtube, bluesky }). At most 2,200 characters on Instagram, 8,000 Facebook, 500 Threads, 10,000 YouTube (needs youtube.force-ssl), 300 graphemes Bluesky. Elsewhere: first_comment_unsupported. */
                    firstComment?: string | {
                        bluesky?: string;
                        default?: string;
                        facebook?: string;
                        instagram?: string;
                        threads?: string;
                        youtube?: string;
                    };
                    mediaId?: string;
                    /** @description Public http(s) links of the media, at most 35 (each platform has its own cap). */
                    mediaUrls?: string[];
                    /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                    normalize?: boolean | {
                        /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                        trim?: boolean;
                    };
                    /** @description Per-platform settings. */
                    platformMeta?: {
                        bluesky?: {
                            /** @description Alt text of each media item, in order (at most 2000 characters each); none for an item: empty. */
                            altTexts?: string[];
                            /** @description Languages of the text as BCP-47 tags (e.g. "en", "pt-BR"), at most 3: Bluesky filters feeds by them. */
                            langs?: string[];
                            /** @description Link card: by default the first link of a post without media; a URL for another page; false for none. Not with media. An unreadable page: no card, warning bluesky_link_card_skipped. */
                            linkCard?: string | false;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                        };
                        facebook?: {
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Publish the video as a reel (start → upload → finish) instead of a Page video. */
                            reel?: boolean;
                        };
                        instagram?: {
                            /**
                             * Format: uri
                             * @description Reel cover image: an http(s) link without credentials in it.
                             */
                            coverUrl?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Whether a reel also appears in the feed. */
                            shareToFeed?: boolean;
                            /** @description Publish the single image or video as a story. */
                            story?: boolean;
                            /** @description Reel cover frame, in ms from the start, when no coverUrl is given. */
                            thumbOffsetMs?: number;
                        };
                        linkedin?: {
                            /** @description Alt text per image, in media order. */
                            altTexts?: string[];
                            /** @description No reshares. */
                            disableReshare?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Video or document title. */
                            title?: string;
                            /** @description Default PUBLIC; CONNECTIONS: members only. */
                            visibility?: "PUBLIC" | "CONNECTIONS" | "LOGGED_IN";
                        };
                        mastodon?: {
                            /** @description Alt text of each media item, in order (at most 1500 characters each). */
                            altTexts?: string[];
                            /** @description ISO 639 language code of the text, e.g. "en". */
                            language?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description A poll instead of media: 2–4 options of at most 50 characters, open 300 s to about a month. */
                            poll?: {
                                /** @description Seconds the poll stays open. */
                                expiresIn: number;
                                multiple?: boolean;
                                options: string[];
                            };
                            /** @description Mark the media as sensitive. */
                            sensitive?: boolean;
                            /** @description Content warning shown before the text (counts toward the character limit). */
                            spoilerText?: string;
                            /** @description public (default), unlisted, private (followers only) or direct. */
                            visibility?: "public" | "unlisted" | "private" | "direct";
                        };
                        pinterest?: {
                            /** @description Alt text. */
                            altText?: string;
                            /** @description Required: a board id of the profile (see its pinterest/boards). */
                            boardId?: string;
                            /** @description A section of the board. */
                            boardSectionId?: string;
                            /**
                             * Format: uri
                             * @description Video cover image.
                             */
                            coverImageUrl?: string;
                            /** @description Video cover frame, in seconds. */
                            coverKeyFrameSeconds?: number;
                            /**
                             * Format: uri
                             * @description Where the pin leads.
                             */
                            link?: string;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description The pin title. */
                            title?: string;
                        };
                        tiktok?: {
                            brandContentOptIn?: boolean;
                            brandOrganicOptIn?: boolean;
                            commercialContentDisclosure?: boolean;
                            disableComment?: boolean;
                            disableDuet?: boolean;
                            disableStitch?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                            videoCoverTimestampMs?: number;
                        };
                        youtube?: {
                            madeForKids?: boolean;
                            /** @description true: media breaking the platform's rules is converted to fit (H.264/AAC MP4, padded, rates capped; PNG/WebP/HEIC to JPEG) and the post waits for it; { "trim": true } also cuts an overlong video. */
                            normalize?: boolean | {
                                /** @description Cut a video longer than the platform takes to its longest duration (otherwise such a video is refused). */
                                trim?: boolean;
                            };
                            /** @description Default: YOUTUBE_DEFAULT_PRIVACY. */
                            privacyStatus?: "public" | "unlisted" | "private";
                            /**
                             * Format: date-time
                             * @description Scheduled publication on YouTube; needs privacyStatus private.
                             */
                            publishAt?: string;
                            /**
                             * Format: uri
                             * @description An http(s) link without credentials in it.
                             */
                            thumbnailUrl?: string;
                        };
                    };
                    /** @description One or more platforms. */
                    platforms: ("instagram" | "tiktok" | "youtube" | "threads" | "facebook" | "bluesky" | "mastodon" | "linkedin" | "x" | "pinterest")[];
                    profileIds?: string[];
                    /** @description Repeat the post: an RFC 5545 RRULE (FREQ=DAILY|WEEKLY|MONTHLY; INTERVAL, BYDAY, COUNT, UNTIL), e.g. "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10", read in timezone from scheduledTime. Each occurrence is a post of its own; the series is at /api/v1/series/{id}. */
                    recurrence?: string;
                    /** @description A schedule id: each profile's post takes that profile's next free slot (instead of scheduledTime). */
                    schedule?: string;
                    /** @description ISO 8601 with Z or an offset, in the future; or a local time without offset together with timezone. */
                    scheduledTime?: string;
                    /** @description Threads, X, Bluesky: up to 20 replies published in order, each under the one before (each at most 500 characters on Threads, 280 weighted on X, 300 graphemes on Bluesky). */
                    thread?: string[];
                    /** @description IANA time zone (e.g. Europe/Berlin) of a scheduledTime without offset: a skipped time moves to the next valid minute, a repeated one is its first occurrence. */
                    timezone?: string;
                    /** @description Required for TikTok (max 150) and YouTube. */
                    title?: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postIds: string[];
                        /** Format: date-time */
                        scheduledTime: string;
                        /** @description With recurrence: the series; postIds are those of the occurrences created so far (GET /api/v1/series/{id}). */
                        seriesId?: string;
                        /** @description With schedule: the slot each post took (scheduledTime above is the earliest). */
                        slots?: {
                            postId: string;
                            profileId: string;
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        status: string;
                        /** @description The timezone the request named, echoed; scheduledTime is the UTC instant chosen. */
                        timezone?: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postIds: string[];
                        /** Format: date-time */
                        scheduledTime: string;
                        /** @description With recurrence: the series; postIds are those of the occurrences created so far (GET /api/v1/series/{id}). */
                        seriesId?: string;
                        /** @description With schedule: the slot each post took (scheduledTime above is the earliest). */
                        slots?: {
                            postId: string;
                            profileId: string;
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        status: string;
                        /** @description The timezone the request named, echoed; scheduledTime is the UTC instant chosen. */
                        timezone?: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listSchedules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule. */
                            defaultFor: string[];
                            id: string;
                            name: string;
                            /** @description Posts per profile per slot (default 1). */
                            postsPerSlot: number;
                            /** @description Profiles the schedule serves. */
                            profileIds: string[];
                            /** @description Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence. */
                            slots: {
                                day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                                /** @description Local wall time HH:MM in the schedule's timezone. */
                                time: string;
                            }[];
                            /** @description IANA time zone the slots are read in (e.g. Europe/Berlin). */
                            timezone: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule. */
                    defaultFor?: string[];
                    name: string;
                    /** @description Posts per profile per slot (default 1). */
                    postsPerSlot?: number;
                    /** @description Profiles the schedule serves. */
                    profileIds: string[];
                    /** @description Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence. */
                    slots: {
                        day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                        /** @description Local wall time HH:MM in the schedule's timezone. */
                        time: string;
                    }[];
                    /** @description IANA time zone the slots are read in (e.g. Europe/Berlin). */
                    timezone: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule. */
                        defaultFor: string[];
                        id: string;
                        name: string;
                        /** @description Posts per profile per slot (default 1). */
                        postsPerSlot: number;
                        /** @description Profiles the schedule serves. */
                        profileIds: string[];
                        /** @description Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence. */
                        slots: {
                            day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                            /** @description Local wall time HH:MM in the schedule's timezone. */
                            time: string;
                        }[];
                        /** @description IANA time zone the slots are read in (e.g. Europe/Berlin). */
                        timezone: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule. */
                        defaultFor: string[];
                        id: string;
                        name: string;
                        /** @description Posts per profile per slot (default 1). */
                        postsPerSlot: number;
                        /** @description Profiles the schedule serves. */
                        profileIds: string[];
                        /** @description Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence. */
                        slots: {
                            day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                            /** @description Local wall time HH:MM in the schedule's timezone. */
                            time: string;
                        }[];
                        /** @description IANA time zone the slots are read in (e.g. Europe/Berlin). */
                        timezone: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule. */
                        defaultFor: string[];
                        id: string;
                        name: string;
                        /** @description Posts per profile per slot (default 1). */
                        postsPerSlot: number;
                        /** @description Profiles the schedule serves. */
                        profileIds: string[];
                        /** @description Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence. */
                        slots: {
                            day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                            /** @description Local wall time HH:MM in the schedule's timezone. */
                            time: string;
                        }[];
                        /** @description IANA time zone the slots are read in (e.g. Europe/Berlin). */
                        timezone: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule. */
                        defaultFor: string[];
                        id: string;
                        name: string;
                        /** @description Posts per profile per slot (default 1). */
                        postsPerSlot: number;
                        /** @description Profiles the schedule serves. */
                        profileIds: string[];
                        /** @description Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence. */
                        slots: {
                            day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                            /** @description Local wall time HH:MM in the schedule's timezone. */
                            time: string;
                        }[];
                        /** @description IANA time zone the slots are read in (e.g. Europe/Berlin). */
                        timezone: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule. */
                    defaultFor?: string[];
                    name?: string;
                    /** @description Posts per profile per slot (default 1). */
                    postsPerSlot?: number;
                    /** @description Profiles the schedule serves. */
                    profileIds?: string[];
                    /** @description Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence. */
                    slots?: {
                        day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                        /** @description Local wall time HH:MM in the schedule's timezone. */
                        time: string;
                    }[];
                    /** @description IANA time zone the slots are read in (e.g. Europe/Berlin). */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description Profiles (among profileIds) whose default schedule this is: "scheduledTime": "next" queues their posts here. A profile has at most one default schedule. */
                        defaultFor: string[];
                        id: string;
                        name: string;
                        /** @description Posts per profile per slot (default 1). */
                        postsPerSlot: number;
                        /** @description Profiles the schedule serves. */
                        profileIds: string[];
                        /** @description Weekly slots; a skipped time moves to the next valid minute, a repeated one fires at its first occurrence. */
                        slots: {
                            day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                            /** @description Local wall time HH:MM in the schedule's timezone. */
                            time: string;
                        }[];
                        /** @description IANA time zone the slots are read in (e.g. Europe/Berlin). */
                        timezone: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    previewScheduleSlots: {
        parameters: {
            query?: {
                count?: number;
                from?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The slot in the schedule's timezone, YYYY-MM-DDTHH:MM. */
                            local: string;
                            profiles: {
                                free: boolean;
                                profileId: string;
                                /** @description Queued posts in this slot. */
                                taken: number;
                            }[];
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    suggestScheduleSlots: {
        parameters: {
            query: {
                count?: number;
                profileId: string;
                timezone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description "history": ranked from this profile's own published posts and their engagement; "defaults": the documented per-platform defaults, because the history is too short (see reason). */
                        basis: "history" | "defaults";
                        /** @description Posts needed before suggestions come from history. */
                        minimumPosts: number;
                        platform: string;
                        /** @description Published posts of the last 90 days with engagement figures. */
                        postsAnalyzed: number;
                        profileId: string;
                        /** @description Why defaults were returned, or null. */
                        reason: string | null;
                        /** @description Ready to use as the `slots` of POST /api/v1/schedules. */
                        slots: {
                            /** @description Mean of likes + comments + shares per post in this weekly hour (views where a platform reports only views; null for defaults). */
                            averageEngagement: number | null;
                            day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                            /** @description Published posts in this weekly hour (null for defaults). */
                            posts: number | null;
                            /** @description HH:MM in `timezone`. */
                            time: string;
                        }[];
                        timezone: string;
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getSeries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        firstTime: string;
                        id: string;
                        /** @description When the next occurrence not yet created is due, or null. */
                        nextTime: string | null;
                        occurrences: {
                            /** @description Why this occurrence was not created (e.g. quota_exceeded), or null. */
                            error: {
                                code: string;
                                error: string;
                            } | null;
                            /** @description Position in the series, the first being 0. */
                            index: number;
                            /** @description The posts created for this occurrence (one per profile); empty when refused. */
                            postIds: string[];
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        /** @description The RRULE as given. */
                        rule: string;
                        /** @description active: more occurrences will be created; ended: every occurrence exists; cancelled: stopped by DELETE. */
                        status: "active" | "ended" | "cancelled";
                        /** @description The post each new occurrence is created from (the create body without scheduledTime and recurrence). */
                        template: {
                            [key: string]: unknown;
                        };
                        timezone: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    cancelSeries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        firstTime: string;
                        id: string;
                        /** @description When the next occurrence not yet created is due, or null. */
                        nextTime: string | null;
                        occurrences: {
                            /** @description Why this occurrence was not created (e.g. quota_exceeded), or null. */
                            error: {
                                code: string;
                                error: string;
                            } | null;
                            /** @description Position in the series, the first being 0. */
                            index: number;
                            /** @description The posts created for this occurrence (one per profile); empty when refused. */
                            postIds: string[];
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        /** @description The RRULE as given. */
                        rule: string;
                        /** @description active: more occurrences will be created; ended: every occurrence exists; cancelled: stopped by DELETE. */
                        status: "active" | "ended" | "cancelled";
                        /** @description The post each new occurrence is created from (the create body without scheduledTime and recurrence). */
                        template: {
                            [key: string]: unknown;
                        };
                        timezone: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    updateSeries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption?: string;
                    category?: string;
                    mediaId?: string;
                    mediaUrls?: string[];
                    platformMeta?: {
                        [key: string]: unknown;
                    };
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        firstTime: string;
                        id: string;
                        /** @description When the next occurrence not yet created is due, or null. */
                        nextTime: string | null;
                        occurrences: {
                            /** @description Why this occurrence was not created (e.g. quota_exceeded), or null. */
                            error: {
                                code: string;
                                error: string;
                            } | null;
                            /** @description Position in the series, the first being 0. */
                            index: number;
                            /** @description The posts created for this occurrence (one per profile); empty when refused. */
                            postIds: string[];
                            /** Format: date-time */
                            scheduledTime: string;
                        }[];
                        /** @description The RRULE as given. */
                        rule: string;
                        /** @description active: more occurrences will be created; ended: every occurrence exists; cancelled: stopped by DELETE. */
                        status: "active" | "ended" | "cancelled";
                        /** @description The post each new occurrence is created from (the create body without scheduledTime and recurrence). */
                        template: {
                            [key: string]: unknown;
                        };
                        timezone: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            description: string | null;
                            disabledAt: string | null;
                            /** @description Why deliveries stopped (e.g. the endpoint failed for days); null while enabled. */
                            disabledReason: string | null;
                            events: string[];
                            id: string;
                            /** @description During a secret rotation, until when the previous secret still signs too. */
                            previousSecretExpiresAt: string | null;
                            status: "enabled" | "disabled";
                            /** Format: date-time */
                            updatedAt: string;
                            url: string;
                        }[];
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    /** @description One or more of post.published, post.failed, post.restricted, post.scheduled, post.cancelled, connection.expired, post.first_comment, post.thread. */
                    events: ("post.published" | "post.failed" | "post.restricted" | "post.scheduled" | "post.cancelled" | "connection.expired" | "post.first_comment" | "post.thread")[];
                    /** @description An http(s) URL on the public internet that answers 2xx within the timeout. */
                    url: string;
                };
            };
        };
        responses: {
            /** @description An earlier identical request answered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        description: string | null;
                        disabledAt: string | null;
                        /** @description Why deliveries stopped (e.g. the endpoint failed for days); null while enabled. */
                        disabledReason: string | null;
                        events: string[];
                        id: string;
                        /** @description During a secret rotation, until when the previous secret still signs too. */
                        previousSecretExpiresAt: string | null;
                        /** @description `whsec_` + base64 key: verify the webhook-signature header with it. Shown only now. */
                        secret: string;
                        status: "enabled" | "disabled";
                        /** Format: date-time */
                        updatedAt: string;
                        url: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        description: string | null;
                        disabledAt: string | null;
                        /** @description Why deliveries stopped (e.g. the endpoint failed for days); null while enabled. */
                        disabledReason: string | null;
                        events: string[];
                        id: string;
                        /** @description During a secret rotation, until when the previous secret still signs too. */
                        previousSecretExpiresAt: string | null;
                        /** @description `whsec_` + base64 key: verify the webhook-signature header with it. Shown only now. */
                        secret: string;
                        status: "enabled" | "disabled";
                        /** Format: date-time */
                        updatedAt: string;
                        url: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        description: string | null;
                        disabledAt: string | null;
                        /** @description Why deliveries stopped (e.g. the endpoint failed for days); null while enabled. */
                        disabledReason: string | null;
                        events: string[];
                        id: string;
                        /** @description During a secret rotation, until when the previous secret still signs too. */
                        previousSecretExpiresAt: string | null;
                        status: "enabled" | "disabled";
                        /** Format: date-time */
                        updatedAt: string;
                        url: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        deletedAt: string;
                        id: string;
                        /** @constant */
                        status: "deleted";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    /** @description false pauses deliveries; true resumes a paused or disabled endpoint. */
                    enabled?: boolean;
                    /** @description One or more of post.published, post.failed, post.restricted, post.scheduled, post.cancelled, connection.expired, post.first_comment, post.thread. */
                    events?: ("post.published" | "post.failed" | "post.restricted" | "post.scheduled" | "post.cancelled" | "connection.expired" | "post.first_comment" | "post.thread")[];
                    /** @description An http(s) URL on the public internet that answers 2xx within the timeout. */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        description: string | null;
                        disabledAt: string | null;
                        /** @description Why deliveries stopped (e.g. the endpoint failed for days); null while enabled. */
                        disabledReason: string | null;
                        events: string[];
                        id: string;
                        /** @description During a secret rotation, until when the previous secret still signs too. */
                        previousSecretExpiresAt: string | null;
                        status: "enabled" | "disabled";
                        /** Format: date-time */
                        updatedAt: string;
                        url: string;
                    };
                };
            };
            /** @description `validation_error`, `invalid_json` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error" | "invalid_json";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attemptCount: number;
                            /** @description Oldest first. */
                            attempts: {
                                /** Format: date-time */
                                attemptedAt: string;
                                durationMs: number;
                                /** @description Why the attempt failed (non-2xx, timeout, refused address, …); null on success. */
                                error: string | null;
                                /** @description HTTP status the endpoint answered; null when it did not answer. */
                                responseCode: number | null;
                            }[];
                            /** Format: date-time */
                            createdAt: string;
                            deliveredAt: string | null;
                            eventId: string;
                            eventType: string;
                            /** @description Also the webhook-id header: the same on every attempt, so receivers can deduplicate. */
                            id: string;
                            /** @description While pending. */
                            nextAttemptAt: string | null;
                            /** @description Of the latest attempt. */
                            responseCode: number | null;
                            status: "pending" | "succeeded" | "failed" | "cancelled";
                            webhookId: string;
                        }[];
                        /** @description Pass as cursor for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attemptCount: number;
                        /** @description Oldest first. */
                        attempts: {
                            /** Format: date-time */
                            attemptedAt: string;
                            durationMs: number;
                            /** @description Why the attempt failed (non-2xx, timeout, refused address, …); null on success. */
                            error: string | null;
                            /** @description HTTP status the endpoint answered; null when it did not answer. */
                            responseCode: number | null;
                        }[];
                        /** Format: date-time */
                        createdAt: string;
                        deliveredAt: string | null;
                        eventId: string;
                        eventType: string;
                        /** @description Also the webhook-id header: the same on every attempt, so receivers can deduplicate. */
                        id: string;
                        /** @description While pending. */
                        nextAttemptAt: string | null;
                        /** @description Of the latest attempt. */
                        responseCode: number | null;
                        status: "pending" | "succeeded" | "failed" | "cancelled";
                        webhookId: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        description: string | null;
                        disabledAt: string | null;
                        /** @description Why deliveries stopped (e.g. the endpoint failed for days); null while enabled. */
                        disabledReason: string | null;
                        events: string[];
                        id: string;
                        /** @description During a secret rotation, until when the previous secret still signs too. */
                        previousSecretExpiresAt: string | null;
                        /** @description `whsec_` + base64 key: verify the webhook-signature header with it. Shown only now. */
                        secret: string;
                        status: "enabled" | "disabled";
                        /** Format: date-time */
                        updatedAt: string;
                        url: string;
                    };
                };
            };
            /** @description `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "missing_api_key" | "invalid_api_key";
                    };
                };
            };
            /** @description `insufficient_scope`, `api_access_disabled`, `plan_required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "insufficient_scope" | "api_access_disabled" | "plan_required";
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
}
