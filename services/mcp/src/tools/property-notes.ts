/**
 * Descriptions of tool arguments the contracts leave undescribed, keyed by the argument's path
 * (`[]` for an array's items). Each says the rule a model has to follow and gives an example; the
 * listed schema takes the contract's own description where there is one.
 */
export const PROPERTY_NOTES: Record<string, string> = {
  postId:
    'A post id (pst_…), from svc_schedule_post, svc_draft_post or svc_list_scheduled_posts. Example: "pst_4fTq9ZbX2mN7cR1pLk0a".',
  scheduleId:
    'A posting schedule id (sch_…), from svc_create_schedule or svc_list_schedules. Example: "sch_8Jd2kQ0vZ1xR5tLmN3bc".',
  caption:
    'The text of the post; each platform also has its own cap (Threads 500, TikTok 2200, …). Example: "New drop today 🚀".',
  title: 'The video title: required for TikTok (at most 150 characters) and YouTube. Example: "Behind the scenes".',
  profileIds:
    'Profile ids from svc_list_profiles, each on one of the listed platforms; omitted: every connected profile of those platforms. Example: ["prf_2bX7…"].',
  mediaId:
    'A media id (med_…) from svc_upload_media, svc_create_upload_url or svc_add_media_from_url; instead of mediaUrls. Example: "med_Q2w8…".',
  mediaUrls:
    'Public http(s) links of the media, at most 35 (each platform has its own cap). Example: ["https://cdn.example.com/a.jpg"].',
  externalId:
    'Your own id for the post (at most 255 characters): the same externalId and payload answer the same postIds; another payload, external_id_conflict.',
  category: 'A label of your choice to filter and group posts by, at most 100 characters. Example: "launch".',
  'platformMeta.instagram': 'Instagram settings. Example: { "shareToFeed": true }.',
  'platformMeta.facebook': 'Facebook settings. Example: { "reel": true }.',
  'platformMeta.youtube': 'YouTube settings. Example: { "privacyStatus": "unlisted" }.',
  'platformMeta.youtube.madeForKids': 'Whether the video is made for children (YouTube COPPA flag). Example: false.',
  'platformMeta.tiktok':
    'TikTok settings: read svc_get_tiktok_posting_options first; privacyLevel must be one it offers. Example: { "privacyLevel": "SELF_ONLY" }.',
  'platformMeta.tiktok.privacyLevel':
    'Who may see the video; one of the levels svc_get_tiktok_posting_options answers for the profile. Example: "PUBLIC_TO_EVERYONE".',
  'platformMeta.tiktok.disableComment': 'true: nobody may comment. Example: false.',
  'platformMeta.tiktok.disableDuet': 'true: nobody may duet the video. Example: false.',
  'platformMeta.tiktok.disableStitch': 'true: nobody may stitch the video. Example: false.',
  'platformMeta.tiktok.commercialContentDisclosure':
    'true: the video promotes a brand, product or service (then set brandOrganicOptIn and/or brandContentOptIn). Example: false.',
  'platformMeta.tiktok.brandOrganicOptIn': 'Promotes your own brand ("Promotional content" label). Example: true.',
  'platformMeta.tiktok.brandContentOptIn':
    'Paid partnership promoting a third party ("Paid partnership" label; never with privacyLevel SELF_ONLY). Example: false.',
  'platformMeta.tiktok.videoCoverTimestampMs':
    'The cover frame, in ms from the start of the video (0 or more). Example: 1500.',
  'platformMeta.bluesky': 'Bluesky settings. Example: { "langs": ["en"] }.',
  'platformMeta.mastodon':
    'Mastodon settings. Example: { "spoilerText": "Spoilers", "visibility": "unlisted", "language": "en" }.',
  'platformMeta.mastodon.poll.options': 'The poll\'s choices: 2 to 4, each 1 to 50 characters. Example: ["Yes", "No"].',
  'platformMeta.mastodon.poll.multiple': 'true: voters may pick several choices. Example: false.',
  'platformMeta.linkedin': 'LinkedIn settings. Example: { "visibility": "PUBLIC" }.',
  'platformMeta.pinterest': 'Pinterest pin. Example: { "boardId": "5497…" }.',
  'firstComment.default':
    'The comment on every platform without its own, 1 to 10,000 characters. Example: "Link in bio".',
  'firstComment.instagram': 'The comment on Instagram (at most 2,200 characters). Example: "#launch".',
  'firstComment.facebook':
    'The comment on Facebook (at most 8,000 characters). Example: "Details: https://example.com".',
  'firstComment.threads': 'The reply on Threads (at most 500 characters). Example: "More below 👇".',
  'firstComment.bluesky': 'The reply on Bluesky (at most 300 graphemes).',
  'firstComment.youtube':
    'The top-level comment on YouTube (at most 10,000 characters). Example: "Chapters: 0:00 intro".',
  status:
    'One status or a comma-separated list of draft, pending_approval, scheduled, posted, failed, cancelled, rejected. Example: "scheduled,failed".',
  platform: 'One platform or a comma-separated list. Example: "instagram,threads".',
  profileId: 'Only posts of this profile id (from svc_list_profiles). Example: "prf_2bX7…".',
  dryRun: 'true: apply every rule and store nothing. Example: true.',
  atomic: 'true: store every row or none. Example: false.',
  name: 'A name for people to recognise it by. Example: "Weekday mornings".',
  'slots[].day': 'Day of the week: mon, tue, wed, thu, fri, sat or sun. Example: "mon".',
  template:
    'The template as svc_export_automation_template answers it (version 1), edited. Example: { "version": 1, "rules": [ … ] }.',
  'template.rules':
    'The rules (at most 100). Example: [{ "trigger": { "match": "any", "keywords": ["price"] }, "action": { "type": "private_reply", "text": "Sent you a DM" } }].',
  'template.rules[].name': 'A name for the rule. Example: "Price question".',
  'template.rules[].trigger':
    'Which comments the rule answers. Example: { "match": "any", "keywords": ["price", "cost"] }.',
  'template.rules[].trigger.keywords':
    'Words or phrases to look for, case-insensitive. Example: ["price", "how much"].',
  'template.rules[].action':
    'The answer: its type and text (at most 1000 characters). Example: { "type": "reply", "text": "Thanks!" }.',
  'template.rules[].caps':
    'At most this many replies under one post and per profile in a rolling hour (defaults 25 and 60). Example: { "perPost": 50, "perHour": 20 }.',
  platformMeta:
    'Per-platform settings, as for svc_schedule_post. Example: { "youtube": { "privacyStatus": "private" } }.',
};

/**
 * Examples for arguments whose contract description states the rule but shows no value, keyed
 * like PROPERTY_NOTES; appended to the description as `Example: …` (JSON).
 */
export const PROPERTY_EXAMPLES: Record<string, string> = {
  title: '"Behind the scenes"',
  scheduledTime: '"2030-05-01T09:30:00+02:00"',
  schedule: '"sch_8Jd2kQ0vZ1xR5tLmN3bc"',
  mediaUrls: '["https://cdn.example.com/clip.mp4"]',
  normalize: '{ "trim": true }',
  'platformMeta.instagram.coverUrl': '"https://cdn.example.com/cover.jpg"',
  'platformMeta.instagram.thumbOffsetMs': '2000',
  'platformMeta.facebook.coverUrl': '"https://cdn.example.com/cover.jpg"',
  'platformMeta.youtube.thumbnailUrl': '"https://cdn.example.com/thumb.jpg"',
  'platformMeta.youtube.publishAt': '"2030-05-01T18:00:00Z"',
  'platformMeta.bluesky.altTexts': '["A red bicycle"]',
  'platformMeta.mastodon.spoilerText': '"Spoilers"',
  'platformMeta.mastodon.altTexts': '["A red bicycle"]',
  'platformMeta.mastodon.poll': '{ "options": ["Yes", "No"], "expiresIn": 86400 }',
  'platformMeta.mastodon.poll.expiresIn': '86400',
  'platformMeta.linkedin.altTexts': '["A red bicycle"]',
  'platformMeta.linkedin.title': '"Quarterly report"',
  'platformMeta.pinterest.boardId': '"549755885175"',
  firstComment: '{ "default": "Link in bio", "threads": "More below" }',
  thread: '["Part two", "Part three"]',
  postId: '"pst_4fTq9ZbX2mN7cR1pLk0a"',
  from: '"2030-05-01T00:00:00Z"',
  to: '"2030-06-01T00:00:00Z"',
  slots: '[{ "day": "mon", "time": "09:30" }]',
  'slots[].time': '"09:30"',
  profileIds: '["prf_2bX7…"]',
  defaultFor: '["prf_2bX7…"]',
  timezone: '"Europe/Berlin"',
  profileId: '"prf_2bX7…"',
  content: '"iVBORw0KGgo…"',
  filename: '"launch.mp4"',
  url: '"https://cdn.example.com/clip.mp4"',
  'template.rules[].id': '"price-question"',
  'template.rules[].profileIds': '["prf_2bX7…"]',
  'template.rules[].platforms': '["instagram"]',
  'template.rules[].action.text': '"Hi {name}, the price is in your DMs"',
};
