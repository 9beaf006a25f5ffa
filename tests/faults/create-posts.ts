import type { PlannedPost } from './post-plan';
import { sleep } from '../harness/service-process';

/** What one create answered: its post (the first occurrence's, for a recurring post), and the series or slot it got. */
export interface CreatedPost {
  id: string;
  /** A recurring post's series. */
  seriesId?: string;
  /** A recurring post's occurrences created with the series. */
  occurrencesAtCreate?: number;
  /** The time the post was given: its slot when queued. */
  scheduledTime: string;
}

interface CreateAnswer {
  postIds: string[];
  seriesId?: string;
  scheduledTime: string;
}

/**
 * Creates the planned posts (those at `indexes`, by default all) through the REST API with their accounts' keys, `concurrency` at a time, each due at
 * `dueAt(i)` (at least 5 s ahead when sent) unless its body names a `schedule` (the queue gives
 * its time). An unanswered create is sent again as it was: the post's externalId makes a repeat
 * answer the original, and a recurring post (no externalId) goes with an Idempotency-Key. A
 * create that cannot be told apart is looked up by its externalId.
 */
export async function createPosts(
  baseUrl: string,
  planned: PlannedPost[],
  dueAt: (i: number) => number,
  bodyOf: (i: number) => Record<string, unknown> = (i) => planned[i].body,
  indexes: number[] = planned.map((_, i) => i),
  concurrency = 16,
): Promise<CreatedPost[]> {
  const headersOf = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  const created: CreatedPost[] = new Array(planned.length);
  // The soonest due first, so that none is sent after its time.
  const order = [...indexes].sort((x, y) => dueAt(x) - dueAt(y));
  let next = 0;
  const lookUp = async (token: string, apiKey: string) => {
    const res = await fetch(`${baseUrl}/api/v1/posts?externalId=${encodeURIComponent(token)}`, {
      headers: headersOf(apiKey),
    });
    const post = res.ok ? ((await res.json()) as { data: { id: string; scheduledTime: string }[] }).data[0] : undefined;
    return post && { id: post.id, scheduledTime: post.scheduledTime };
  };
  const bodyAt = (i: number, time: number) => {
    const body = bodyOf(i);
    return JSON.stringify(
      body.schedule ? body : { ...body, scheduledTime: new Date(Math.max(time, Date.now() + 5000)).toISOString() },
    );
  };
  const worker = async () => {
    while (next < order.length) {
      const i = order[next++];
      const recurring = !!bodyOf(i).recurrence;
      const headers = { ...headersOf(planned[i].apiKey), ...(recurring && { 'idempotency-key': planned[i].token }) };
      let body = bodyAt(i, dueAt(i));
      for (let attempt = 1; !created[i]; attempt++) {
        const res = await fetch(`${baseUrl}/api/v1/posts`, { method: 'POST', headers, body }).catch(
          (err: Error) => err,
        );
        if (!(res instanceof Error) && (res.status === 201 || res.status === 200)) {
          const answer = (await res.json()) as CreateAnswer;
          created[i] = {
            id: answer.postIds[0],
            seriesId: answer.seriesId,
            occurrencesAtCreate: answer.seriesId ? answer.postIds.length : undefined,
            scheduledTime: answer.scheduledTime,
          };
          break;
        }
        const answer =
          res instanceof Error ? { status: 0, text: res.message } : { status: res.status, text: await res.text() };
        const existing =
          !recurring && (answer.status === 409 || answer.status === 400)
            ? await lookUp(planned[i].token, planned[i].apiKey)
            : undefined;
        if (existing) {
          created[i] = existing;
          break;
        }
        // A recurring post's repeat while the first is still in flight answers 409: asked again, it answers the series.
        const retryable =
          answer.status === 0 || answer.status === 429 || answer.status >= 500 || (recurring && answer.status === 409);
        if (answer.status === 400 && answer.text.includes('scheduled_time_in_past'))
          body = bodyAt(i, Date.now() + 5000);
        else if (attempt >= 6 || !retryable)
          throw new Error(`creating ${planned[i].token} failed: ${answer.status} ${answer.text}`);
        await sleep(500 * attempt);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return created;
}
