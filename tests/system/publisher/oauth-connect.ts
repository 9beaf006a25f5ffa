import type { RunningSystem } from '../support/system';

/**
 * Connects a profile the way a person does: the connect link, the platform's consent page
 * (the sandbox's), the callback. The profile gets real OAuth tokens, refresh token included.
 */
export async function connectThroughOAuth(
  system: RunningSystem,
  apiKey: string,
  platform: string,
  handle: string,
): Promise<string> {
  const request = await fetch(`${system.baseUrl}/api/v1/connections`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ platform }),
  });
  const { requestId, connectUrl } = (await request.json()) as { requestId: string; connectUrl: string };
  const browser = new CookieJar();
  const landing = await browser.send(connectUrl);
  const toPlatform = await browser.send(connectUrl, hiddenFields(landing.html));
  const consent = await browser.send(toPlatform.location!);
  const back = await browser.send(toPlatform.location!, {
    ...hiddenFields(consent.html),
    account: 'new',
    handle,
    decision: 'approve',
  });
  await browser.send(back.location!);
  const state = await fetch(`${system.baseUrl}/api/v1/connections/requests/${requestId}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const body = (await state.json()) as { status: string; profileId: string };
  if (body.status !== 'completed')
    throw new Error(`the ${platform} connection did not complete: ${JSON.stringify(body)}`);
  return body.profileId;
}

function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    out[m[1]] = m[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return out;
}

class CookieJar {
  private readonly cookies = new Map<string, string>();

  async send(
    url: string,
    form?: Record<string, string>,
  ): Promise<{ status: number; html: string; location: string | null }> {
    const headers: Record<string, string> = {};
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form) : undefined,
      redirect: 'manual',
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const at = pair.indexOf('=');
      if (pair.slice(at + 1)) this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    return {
      status: res.status,
      html: await res.text(),
      location: location ? new URL(location, url).toString() : null,
    };
  }
}
