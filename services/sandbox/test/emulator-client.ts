import type { RunningSandbox } from '../src/main';

/** Raw calls to the emulated platforms and the control API, as the emulator tests need them. */

export async function newUser(
  sandbox: RunningSandbox,
  platform: string,
  handle = `${platform}_user`,
): Promise<{ userId: string; accessToken: string; handle: string }> {
  const res = await fetch(`${sandbox.url}/__sandbox/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform, handle }),
  });
  if (res.status !== 201) throw new Error(`user: ${res.status} ${await res.text()}`);
  return (await res.json()) as { userId: string; accessToken: string; handle: string };
}

export async function call(
  url: string,
  init: {
    method?: string;
    token?: string;
    scheme?: string;
    form?: Record<string, string>;
    json?: unknown;
    headers?: Record<string, string>;
    body?: Uint8Array | string;
  } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `${init.scheme ?? 'Bearer'} ${init.token}`;
  let body: RequestInit['body'] = init.body as RequestInit['body'];
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.json !== undefined) {
    headers['content-type'] = 'application/json; charset=UTF-8';
    body = JSON.stringify(init.json);
  }
  const res = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export function control(sandbox: RunningSandbox, method: string, path: string, json?: unknown) {
  return call(`${sandbox.url}/__sandbox${path}`, { method, json });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
