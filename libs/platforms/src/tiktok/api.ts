import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { nodeFetch } from '../http/node-fetch';
import { parseJson } from '../meta/graph-request';
import { tiktokErrorFromResponse, tiktokNetworkError } from './errors';

/** How to reach the Content Posting API: `baseUrl` is `https://open.tiktokapis.com` or `${sandboxUrl}/tiktok`. */
export interface TikTokApiOptions {
  baseUrl: string;
  accessToken: string;
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
}

/** Bytes of an answer read at most: publish ids, creator info and statuses are small. */
export const TIKTOK_ANSWER_MAX_BYTES = 1024 * 1024;

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/**
 * `POST {baseUrl}{path}` with a JSON body and `Authorization: Bearer`. Answers `data` when
 * `error.code` is `ok`; business errors can arrive with HTTP 200, so the code is always checked.
 */
export async function callTikTok(api: TikTokApiOptions, path: string, body: unknown): Promise<Record<string, unknown>> {
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await (api.fetchImpl ?? nodeFetch)(`${api.baseUrl.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.accessToken}`, 'content-type': 'application/json; charset=UTF-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(api.timeoutMs ?? 30_000),
    });
    answer = await readBoundedAnswer(res, TIKTOK_ANSWER_MAX_BYTES);
  } catch (cause) {
    const name = (cause as { name?: string }).name;
    const code = (cause as { cause?: { code?: string } }).cause?.code;
    throw tiktokNetworkError(name === 'TimeoutError' || name === 'AbortError', !(code && NOT_SENT.has(code)), cause);
  }
  // Like any 2xx TikTok cannot make readable: not transient, its status telling a publish start it may have gone through.
  if (res.ok && answer.cut)
    throw answerTooLarge('tiktok', `POST ${path}`, TIKTOK_ANSWER_MAX_BYTES, { status: res.status });
  const text = answer.text;
  const parsed = parseJson(text) as { data?: unknown; error?: { code?: unknown } } | undefined;
  if (res.ok && parsed?.error?.code === 'ok') return (parsed.data ?? {}) as Record<string, unknown>;
  throw tiktokErrorFromResponse(res.status, res.headers, parsed ?? text);
}
