import { callSandbox } from '@postbus/testing';
import type { RunningSandbox } from '../src/main';
import type { PublishedItem } from '../src/published';

/** Small helpers over the sandbox's control API, as any test of the system would use it. */

export interface ThreadsAccount {
  userId: string;
  accessToken: string;
  handle: string;
  baseUrl: string;
}

export function control(sandbox: RunningSandbox, method: string, path: string, body?: unknown) {
  return callSandbox<any>(sandbox.url, method, path, body);
}

export async function aThreadsAccount(sandbox: RunningSandbox, handle = 'postbus_tester'): Promise<ThreadsAccount> {
  const { status, body } = await control(sandbox, 'POST', '/users', { platform: 'threads', handle });
  if (status !== 201) throw new Error(`could not create a sandbox user: ${status} ${JSON.stringify(body)}`);
  return {
    userId: body.userId,
    accessToken: body.accessToken,
    handle: body.handle,
    baseUrl: `${sandbox.url}/threads/v1.0`,
  };
}

export async function publishedOn(sandbox: RunningSandbox, platform = 'threads'): Promise<PublishedItem[]> {
  const { body } = await control(sandbox, 'GET', `/published?platform=${platform}`);
  return body;
}

export async function injectFault(sandbox: RunningSandbox, fault: Record<string, unknown>): Promise<void> {
  const { status, body } = await control(sandbox, 'POST', '/faults', { platform: 'threads', ...fault });
  if (status !== 201) throw new Error(`could not inject a fault: ${status} ${JSON.stringify(body)}`);
}

/** A raw Graph call, for checking what the emulator itself answers. */
export async function graph(
  account: ThreadsAccount,
  method: 'GET' | 'POST',
  path: string,
  form?: Record<string, string>,
  token = account.accessToken,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${account.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(form && { 'content-type': 'application/x-www-form-urlencoded' }) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: res.status, body: await res.json() };
}

/** Runs fn and answers the error it threw; fails the test when it did not throw. */
export async function errorOf(fn: () => Promise<unknown>): Promise<any> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
