import type { Platform } from '@postbus/contracts';
import { PLATFORM_NAMES, missingPublishingScopes } from '@postbus/platforms';

/**
 * Why a grant cannot publish, or undefined. People may approve fewer scopes than asked (TikTok:
 * https://developers.tiktok.com/doc/login-kit-manage-user-access-tokens; Google's granular consent:
 * https://developers.google.com/identity/protocols/oauth2/resources/granular-permissions), and a
 * profile without its publishing scope would only fail when its first post is published. Judged on
 * the scopes the token answer lists; a platform that lists none (Facebook's code exchange) is not judged here.
 */
export function missingScopeReason(platform: Platform, granted: readonly string[]): string | undefined {
  if (!granted.length) return undefined;
  const missing = missingPublishingScopes(platform, granted);
  if (!missing.length) return undefined;
  const name = PLATFORM_NAMES[platform];
  const list = missing.join(', ');
  return `The ${name} authorization did not grant ${list}, which publishing needs. Connect again and approve ${missing.length === 1 ? 'that permission' : 'those permissions'} on the ${name} consent screen.`;
}
