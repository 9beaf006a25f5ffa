import type { RunningSandbox } from '../src/main';

/** Drives the sandbox consent pages over plain HTTP, as a browser's form would. */

export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    out[unescape(m[1])] = unescape(m[2]);
  return out;
}

function unescape(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Opens the consent page and submits it; answers where the platform redirects back to. */
/** `scope`: what the person leaves approved on the consent page, when fewer than the app asked for. */
export async function consent(
  authorizeUrl: string,
  choice: { accounts?: string[]; handle?: string; decision?: 'approve' | 'deny'; scope?: string } = {},
): Promise<URL> {
  const page = await fetch(authorizeUrl);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${await page.text()}`);
  const form = new URLSearchParams(hiddenFields(await page.text()));
  for (const account of choice.accounts ?? ['new']) form.append('account', account);
  form.set('handle', choice.handle ?? `user_${Math.random().toString(36).slice(2, 8)}`);
  form.set('decision', choice.decision ?? 'approve');
  if (choice.scope !== undefined) form.set('scope', choice.scope);
  const res = await fetch(authorizeUrl, { method: 'POST', body: form, redirect: 'manual' });
  if (res.status !== 303) throw new Error(`consent answered ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location')!);
}

export async function form(
  url: string,
  fields: Record<string, string | undefined>,
): Promise<{ status: number; body: any }> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.set(k, v);
  const res = await fetch(url, { method: 'POST', body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function get(url: string, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function oauthControl(
  sandbox: RunningSandbox,
  path: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sandbox.url}/__sandbox/oauth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
