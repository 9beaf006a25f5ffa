import type { PlannedPost } from './post-plan';
import { sleep } from '../harness/service-process';

/**
 * Creates the planned posts through the REST API with their accounts' keys, `concurrency` at a time, each due at
 * `dueAt(i)` (at least 5 s ahead when sent). An unanswered create is sent again as it was:
 * the post's externalId makes a repeat answer the original. A create that cannot be told
 * apart is looked up by its externalId.
 */
export async function createPosts(baseUrl: string, planned: PlannedPost[], dueAt: (i: number) => number, concurrency = 16): Promise<string[]> {
  const headersOf = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  const ids: string[] = new Array(planned.length);
  // The soonest due first, so that none is sent after its time.
  const order = planned.map((_, i) => i).sort((x, y) => dueAt(x) - dueAt(y));
  let next = 0;
  const lookUp = async (token: string, apiKey: string) => {
    const res = await fetch(`${baseUrl}/api/v1/posts?externalId=${encodeURIComponent(token)}`, { headers: headersOf(apiKey) });
    return res.ok ? ((await res.json()) as { data: { id: string }[] }).data[0]?.id : undefined;
  };
  const worker = async () => {
    while (next < planned.length) {
      const i = order[next++];
      const headers = headersOf(planned[i].apiKey);
      let body = JSON.stringify({ ...planned[i].body, scheduledTime: new Date(Math.max(dueAt(i), Date.now() + 5000)).toISOString() });
      for (let attempt = 1; !ids[i]; attempt++) {
        const res = await fetch(`${baseUrl}/api/v1/posts`, { method: 'POST', headers, body }).catch((err: Error) => err);
        if (!(res instanceof Error) && (res.status === 201 || res.status === 200)) {
          ids[i] = ((await res.json()) as { postIds: string[] }).postIds[0];
          break;
        }
        const answer = res instanceof Error ? { status: 0, text: res.message } : { status: res.status, text: await res.text() };
        const existing = answer.status === 409 || answer.status === 400 ? await lookUp(planned[i].token, planned[i].apiKey) : undefined;
        if (existing) {
          ids[i] = existing;
          break;
        }
        if (answer.status === 400 && answer.text.includes('scheduled_time_in_past')) body = JSON.stringify({ ...planned[i].body, scheduledTime: new Date(Date.now() + 5000).toISOString() });
        else if (attempt >= 6 || (answer.status >= 400 && answer.status < 500 && answer.status !== 429)) throw new Error(`creating ${planned[i].token} failed: ${answer.status} ${answer.text}`);
        await sleep(500 * attempt);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}
