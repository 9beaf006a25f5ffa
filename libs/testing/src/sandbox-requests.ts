/** A running sandbox, as these helpers reach it: its base URL. */
export interface SandboxAt {
  url: string;
}

/** One request a platform's emulator received, as the sandbox logs it. */
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

/** The requests one platform's emulator received (`GET /__sandbox/requests?platform=`). */
export async function receivedBy(sandbox: SandboxAt, platform: string): Promise<Received[]> {
  const res = await fetch(`${sandbox.url}/__sandbox/requests?platform=${platform}`);
  return (await res.json()) as Received[];
}

/**
 * The requests a platform's emulator received, each as `METHOD /path?query`, with the account's
 * id shown as `{user}` and other platform ids as `{id}` so sequences can be compared exactly.
 */
export async function calls(
  sandbox: SandboxAt,
  platform: string,
  userId: string,
  since = 0,
): Promise<{ lines: string[]; requests: Received[] }> {
  const requests = (await receivedBy(sandbox, platform)).filter((r) => r.seq > since);
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

/**
 * The sequence number of the last request any emulator of a sandbox started in this process
 * received: pass it as `since` to see only what follows.
 */
export function lastRequestSeq(sandbox: { state: { requests: { list(): { seq: number }[] } } }): number {
  return sandbox.state.requests.list().at(-1)?.seq ?? 0;
}
