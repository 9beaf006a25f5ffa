/**
 * A grant lives at most `maxMs` from the consent, however often its refresh token is rotated:
 * past it neither its refresh tokens nor its access tokens are honoured, and the application must
 * ask the person again (OAUTH_GRANT_MAX_DAYS).
 */
export function grantOutlived(grantCreatedAt: Date | string, maxMs: number, now = new Date()): boolean {
  return new Date(grantCreatedAt).getTime() + maxMs <= now.getTime();
}
