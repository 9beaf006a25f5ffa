import { AppError, type CommentReceived, type Credentials, type Profile } from '@postbus/contracts';
import { isPlatformError } from '@postbus/platforms';
import type { ActivityRecord } from '../activity/activity.repository';
import type { AnswerPorts } from './answer.ports';

/** Asked again on a later attempt: the reply was refused for a passing reason and certainly not posted. */
export interface RetryLater {
  retry: string;
  retryAfterMs?: number;
}

/**
 * Sends a queued (or retrying) reply once. The row is marked `sending` just before the platform
 * call; a row found `sending` later was interrupted mid-call and is never sent again. A refused
 * token is refreshed once; passing refusals (throttling, 5xx) wait for a later attempt unless
 * this is the last one.
 */
export async function sendReply(
  ports: AnswerPorts,
  row: ActivityRecord,
  profile: Profile,
  comment: CommentReceived,
  finalAttempt: boolean,
): Promise<RetryLater | undefined> {
  let creds = await usableCredentials(ports, row, profile, false);
  if (!creds) return undefined;
  if (!(await ports.activity.claimForSending(row.id))) return undefined;

  for (let refreshed = false; ; refreshed = true) {
    try {
      const { id } = await ports.sendReply({
        platform: comment.platform,
        action: row.action!,
        accessToken: creds.accessToken,
        platformUserId: creds.platformUserId,
        serviceUrl: creds.serviceUrl,
        dpopJwk: creds.dpopJwk,
        comment,
        text: row.replyText!,
      });
      await ports.activity.markReplied(row.id, id, ports.clock());
      return undefined;
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      if (err.tokenRejected && !refreshed) {
        creds = await usableCredentials(ports, row, profile, true).catch(async (e: unknown) => {
          await ports.activity.markRetrying(row.id, err.message);
          throw e;
        });
        if (!creds) return undefined;
        continue;
      }
      if (err.tokenRejected) {
        await ports.activity.markFailed(row.id, 'profile_unavailable', err.message);
        return undefined;
      }
      if (err.outcomeUnknown) {
        await ports.activity.markFailed(
          row.id,
          'outcome_unknown',
          `${err.message} It is not sent again, so that the comment is never answered twice.`,
        );
        return undefined;
      }
      if (err.transient && !finalAttempt) {
        await ports.activity.markRetrying(row.id, err.message);
        return { retry: err.message, retryAfterMs: err.retryAfterMs };
      }
      await ports.activity.markFailed(row.id, 'platform_error', err.message);
      return undefined;
    }
  }
}

/**
 * The profile's credentials, or undefined once the row is failed because the profile cannot be
 * used (disconnected, needs reconnecting). A service that does not answer throws, for a later attempt.
 */
async function usableCredentials(
  ports: AnswerPorts,
  row: ActivityRecord,
  profile: Profile,
  refresh: boolean,
): Promise<Credentials | undefined> {
  let creds: Credentials;
  try {
    creds = await ports.credentials(profile, { refresh });
  } catch (err) {
    if (err instanceof AppError && err.code !== 'service_unavailable' && err.code !== 'internal_error') {
      await ports.activity.markFailed(
        row.id,
        'profile_unavailable',
        `The profile's credentials could not be read: ${err.message}`,
      );
      return undefined;
    }
    throw err;
  }
  if (creds.status !== 'active') {
    await ports.activity.markFailed(
      row.id,
      'profile_unavailable',
      `The profile is ${creds.status.replace(/_/g, ' ')}; reconnect it so that auto-reply can answer.`,
    );
    return undefined;
  }
  return creds;
}
