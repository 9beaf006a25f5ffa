import { Rpc } from '@postbus/contracts';
import { waitFor } from '@postbus/testing';
import type { RunningSystem } from '../support/system';

/** Calls under the gateway's base URL, as a REST client would. */
export function apiClient(system: RunningSystem) {
  return async function api(
    path: string,
    init: { method?: string; key?: string; body?: unknown; rawBody?: string } = {},
  ) {
    const headers: Record<string, string> = {};
    if (init.key) headers.authorization = `Bearer ${init.key}`;
    if (init.body !== undefined || init.rawBody !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${system.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // plain text (the webhook handshake)
    }
    return { status: res.status, headers: res.headers, body };
  };
}

/** The sandbox's control API for comments: subscriptions, comments (delivered as signed webhooks) and the replies it accepted. */
export function sandboxComments(system: RunningSystem) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${system.sandboxUrl}/__sandbox/comments${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    subscribe: (verifyToken: string) =>
      call('POST', '/subscriptions', { callbackUrl: `${system.baseUrl}/webhooks/meta`, verifyToken }),
    async comment(input: {
      platform: 'instagram' | 'facebook' | 'threads';
      accountId: string;
      text: string;
      postId?: string;
      parentId?: string;
      from?: { id?: string; name?: string };
      fromAccount?: boolean;
      wrapper?: 'changes' | 'flat';
      signature?: 'valid' | 'invalid' | 'missing';
    }) {
      const res = await call('POST', '', input);
      if (res.status !== 201)
        throw new Error(`the sandbox refused a comment: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as {
        comment: { id: string; postId: string };
        deliveries: { status: number | null; body: string }[];
      };
    },
    redeliver: async (commentId: string, signature?: 'valid' | 'invalid' | 'missing') =>
      (await call('POST', `/${commentId}/deliver`, signature ? { signature } : {})).body as {
        deliveries: { status: number | null; body: string }[];
      },
    replies: async (commentId: string) =>
      (await call('GET', `/replies?commentId=${encodeURIComponent(commentId)}`)).body as {
        kind: string;
        id: string;
        text: string;
        commentId: string;
      }[],
  };
}

/** The platform account id (sandbox user id) behind a seeded profile. */
export async function platformUserIdOf(system: RunningSystem, accountId: string, profileId: string): Promise<string> {
  const creds = await system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId });
  return creds.platformUserId;
}

/** Polls the activity until the comment's entry for this key's account has left `pending`. */
export async function settledActivity(
  api: ReturnType<typeof apiClient>,
  key: string,
  commentId: string,
  what = 'the comment to be handled',
) {
  return waitFor(
    async () => {
      const res = await api(`/api/v1/automation/activity?commentId=${encodeURIComponent(commentId)}`, { key });
      const entry = res.body?.data?.[0];
      return entry && entry.outcome !== 'pending' ? entry : undefined;
    },
    { timeoutMs: 15_000, what },
  );
}
