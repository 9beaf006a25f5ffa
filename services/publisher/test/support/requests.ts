import type { RunningSandbox } from '@postbus/sandbox';
import { receivedBy } from './harness';

export interface Received {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  authScheme: string | null;
  body: Record<string, unknown> | null;
  bodyBytes: number | null;
}

/**
 * The requests a platform's emulator received, each as `METHOD /path?query`, with the account's
 * id shown as `{user}` and other platform ids as `{id}` so sequences can be compared exactly.
 */
export async function calls(
  sandbox: RunningSandbox,
  platform: string,
  userId: string,
  since = 0,
): Promise<{ lines: string[]; requests: Received[] }> {
  const requests = ((await receivedBy(sandbox, platform)) as Received[]).filter((r) => r.seq > since);
  const lines = requests.map((r) => {
    const query = Object.entries(r.query)
      .filter(([k]) => !['upload_id', 'upload_token', 'creation_id', 'video_id', 'videoId'].includes(k))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const path = r.path
      .replace(/\/\d{10,}_\d+/g, '/{id}')
      .replaceAll(userId, '{user}')
      .replace(/\/\d{10,}/g, '/{id}');
    return `${r.method} ${path}${query ? `?${query}` : ''}`;
  });
  return { lines, requests };
}

export function bodiesOf(requests: Received[], method: string, pathEnd: string): Record<string, unknown>[] {
  return requests.filter((r) => r.method === method && r.path.endsWith(pathEnd)).map((r) => r.body ?? {});
}

/** The sequence number of the last request any emulator received: pass it as `since` to see only what follows. */
export function lastRequestSeq(sandbox: RunningSandbox): number {
  return sandbox.state.requests.list().at(-1)?.seq ?? 0;
}
