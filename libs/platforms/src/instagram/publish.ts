import { PlatformError, isPlatformError } from '../errors';
import { graphIdOf } from '../meta/graph-api';
import { callInstagram, type InstagramApiOptions } from './api';

/**
 * `POST /{ig-user-id}/media_publish?creation_id=`: the FINISHED container goes live, then its
 * permalink is read. A lost answer leaves the outcome unknown: the error says so and names the
 * container, whose status (PUBLISHED or not) settles it.
 */
export async function publishInstagramContainer(
  api: InstagramApiOptions & { userId: string; containerId: string },
): Promise<{ platformPostId: string; permalink: string | null }> {
  let body: Record<string, unknown>;
  try {
    body = await callInstagram(api, 'POST', [api.userId, 'media_publish'], { query: { creation_id: api.containerId } });
  } catch (err) {
    if (isPlatformError(err)) throw err.with({ containerId: api.containerId, outcomeUnknown: mayHaveGoneThrough(err) });
    throw err;
  }
  const platformPostId = graphIdOf(body);
  if (!platformPostId) {
    throw new PlatformError(
      'Instagram accepted the publish call but did not say which post it created; its status will be checked.',
      {
        platform: 'instagram',
        transient: true,
        code: 'invalid_response',
        containerId: api.containerId,
        outcomeUnknown: true,
      },
    );
  }
  return { platformPostId, permalink: await getInstagramPermalink({ ...api, mediaId: platformPostId }) };
}

/** `GET /{ig-media-id}?fields=id,permalink`. The post is already live, so a failure here answers null. */
export async function getInstagramPermalink(api: InstagramApiOptions & { mediaId: string }): Promise<string | null> {
  try {
    const body = await callInstagram(api, 'GET', [api.mediaId], { query: { fields: 'id,permalink' } });
    return typeof body.permalink === 'string' && body.permalink ? body.permalink : null;
  } catch {
    return null;
  }
}

/** A refusal with a Meta error body is a definite "no"; silence, a dropped connection or a 5xx is not. */
export function mayHaveGoneThrough(err: PlatformError): boolean {
  if (err.code === 'timeout' || err.code === 'network_error') return true;
  return err.status !== undefined && (err.status >= 500 || (err.status >= 200 && err.status < 300));
}
