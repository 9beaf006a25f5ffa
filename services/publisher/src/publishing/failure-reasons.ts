/** The reasons the pipeline itself gives (platform refusals carry their own, from libs/platforms). */

const NAMES: Record<string, string> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  threads: 'Threads',
  tiktok: 'TikTok',
  youtube: 'YouTube',
};

export function platformName(platform: string): string {
  return NAMES[platform] ?? platform;
}

export function unknownOutcomeReason(platform: string): string {
  const name = platformName(platform);
  return `The outcome of publishing to ${name} is unknown: the publish call went unanswered and ${name} offers no way to check it. It was not retried, so the post cannot appear twice; check the profile and publish again if the post is missing.`;
}

export const DISCONNECTED_REASON =
  'The profile was disconnected before the post was published; reconnect it and schedule the post again.';

export function reconnectReason(platform: string, handle: string): string {
  return `The ${platformName(platform)} profile @${handle} needs to be reconnected before it can publish.`;
}

export function unsupportedPlatformReason(platform: string): string {
  return `Publishing to ${platform} is not available on this server.`;
}

export function stillProcessingReason(what: string, waitedMs: number): string {
  const seconds = Math.round(waitedMs / 1000);
  const minutes = Math.round(waitedMs / 60_000);
  const waited = seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${minutes} minutes`;
  return `${what} after ${waited}, so Postbus stopped waiting; check the media (format, length, size) and publish the post again.`;
}

/** "X had a temporary problem; publishing will be tried again." → "X had a temporary problem. Postbus gave up after 5 attempts; …" */
export function gaveUpReason(message: string, attempts: number): string {
  const base = message
    .replace(/[;,]?\s*(publishing|it) will be (tried|checked) again[^.]*\.?$/i, '')
    .replace(/[.;,\s]+$/, '');
  return `${base}. Postbus gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}; publish the post again later.`;
}

export function credentialsUnavailableReason(platform: string): string {
  return `The ${platformName(platform)} credentials could not be read from the connections service; publishing will be tried again.`;
}

export const MEDIA_GONE_REASON =
  'The media of this post was deleted from the media library before it was published; upload it again and schedule a new post.';
