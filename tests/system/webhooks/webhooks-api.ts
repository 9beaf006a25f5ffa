import { api } from '../support/posts-api';
import type { RunningSystem } from '../support/system';

/** Registers an endpoint and answers it with its secret (fails the test on anything but 201). */
export async function createWebhook(
  system: RunningSystem,
  key: string,
  body: { url: string; events: string[]; description?: string },
) {
  const res = await api(system, '/api/v1/webhooks', { method: 'POST', key, body });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; secret: string; url: string; events: string[]; status: string };
}

/** Every delivery of an endpoint (first page, newest first). */
export async function deliveriesOf(system: RunningSystem, key: string, webhookId: string): Promise<any[]> {
  const res = await api(system, `/api/v1/webhooks/${webhookId}/deliveries?limit=100`, { key });
  if (res.status !== 200) throw new Error(`deliveries not listed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Publishes a Threads post now through the API; answers its id. */
export async function publishPost(
  system: RunningSystem,
  key: string,
  caption = `webhook test ${Math.random().toString(36).slice(2)}`,
): Promise<string> {
  const res = await api(system, '/api/v1/publish', { method: 'POST', key, body: { platforms: ['threads'], caption } });
  if (res.status !== 201) throw new Error(`post not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.postIds[0];
}

/** Schedules a Threads post an hour ahead (it stays scheduled during the test); answers its id. */
export async function schedulePost(system: RunningSystem, key: string): Promise<string> {
  const res = await api(system, '/api/v1/posts', {
    method: 'POST',
    key,
    body: { platforms: ['threads'], caption: 'later', scheduledTime: new Date(Date.now() + 3600_000).toISOString() },
  });
  if (res.status !== 201) throw new Error(`post not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.postIds[0];
}
