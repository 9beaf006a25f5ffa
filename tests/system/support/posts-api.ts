import { readFile } from 'node:fs/promises';
import { Rpc, type Post, type Principal } from '@postbus/contracts';
import { waitFor } from '@postbus/testing';
import type { RunningSystem } from './system';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** One JSON call to the gateway as a client makes it (`rawBody`: a JSON body sent as it is written). */
export async function api(
  system: RunningSystem,
  path: string,
  init: { method?: string; key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined || init.rawBody !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

/** The principal a key resolves to, for counting through the posts RPC. */
export async function principalOf(system: RunningSystem, apiKey: string): Promise<Principal> {
  return system.bus.rpc.call(Rpc.authVerifyKey, { token: apiKey });
}

/** Every post of the account, through the posts RPC (page by page). */
export async function allPosts(system: RunningSystem, principal: Principal): Promise<Post[]> {
  const out: Post[] = [];
  let cursor: string | undefined;
  do {
    const page = await system.bus.rpc.call(Rpc.postsList, { limit: 100, ...(cursor && { cursor }) }, principal);
    out.push(...page.data);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** The post once it has ended (posted or failed), read through the REST API. */
export function endedPost(system: RunningSystem, key: string, postId: string, timeoutMs = 45_000): Promise<any> {
  return waitFor(
    async () => {
      const r = await api(system, `/api/v1/posts/${postId}`, { key });
      return ['posted', 'failed'].includes(r.body.status) ? r.body : undefined;
    },
    { timeoutMs, intervalMs: 100, what: `post ${postId} to end` },
  );
}

/** What a platform's emulator shows as published: its text (or title) and what else the platform keeps. */
export interface Published {
  text: string;
  [field: string]: any;
}

/** Accounts published on the sandbox platform, to see what reached it. */
export async function publishedOn(system: RunningSystem, platform: string): Promise<Published[]> {
  const res = await fetch(`${system.sandboxUrl}/__sandbox/published?platform=${platform}`);
  const body = (await res.json()) as { items: Published[] } | Published[];
  return Array.isArray(body) ? body : body.items;
}

/** Uploads a file through the gateway as a client does (multipart, field `file`); answers its mediaId and signed URL. */
export async function uploadFile(
  system: RunningSystem,
  key: string,
  path: string,
  type: string,
): Promise<{ mediaId: string; url: string }> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(path)], { type }), path.split('/').pop());
  const res = await fetch(`${system.baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const body = (await res.json()) as { mediaId: string; url: string };
  if (res.status !== 201) throw new Error(`media did not take ${path} (${res.status} ${JSON.stringify(body)})`);
  return body;
}
