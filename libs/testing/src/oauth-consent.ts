/** A browser without JavaScript: keeps the cookies of one origin and never follows redirects by itself. */
export class CookieBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request(pathOrUrl: string, form?: Record<string, string>) {
    const url = new URL(pathOrUrl, this.baseUrl);
    const headers: Record<string, string> = {};
    if (url.origin === new URL(this.baseUrl).origin && this.cookies.size)
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value && !/expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return { status: res.status, headers: res.headers, html: await res.text(), location: res.headers.get('location') };
  }
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of the form posting to `action` (or of the whole page), unescaped. */
export function hiddenFields(html: string, action?: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const form = action
    ? (html.match(new RegExp(`<form method="post" action="${action}">([\\s\\S]*?)</form>`))?.[1] ?? '')
    : html;
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[unescapeHtml(m[1])] ??= unescapeHtml(m[2]);
  return fields;
}

export interface ConsentOutcome {
  /** Where the authorization server sent the person back to (the client's redirect URI with code or error, state and iss). */
  redirect: URL;
  /** The consent page as it was shown. */
  consentHtml: string;
  browser: CookieBrowser;
}

/**
 * Plays the person at an authorization URL: signs in with the settings sign-in when asked, then
 * allows (or denies) on the consent page, and answers the redirect back to the client.
 */
export async function completeConsent(
  authorizationUrl: string | URL,
  person: { email: string; password: string },
  opts: { decision?: 'allow' | 'deny'; browser?: CookieBrowser } = {},
): Promise<ConsentOutcome> {
  const url = new URL(authorizationUrl);
  const browser = opts.browser ?? new CookieBrowser(url.origin);
  let page = await browser.request(url.toString());
  if (page.status === 303 && page.location?.startsWith('/signin')) {
    const signIn = await browser.request(page.location);
    const next = new URL(page.location, url.origin).searchParams.get('next') ?? '';
    const signedIn = await browser.request('/signin', {
      ...hiddenFields(signIn.html, '/signin'),
      email: person.email,
      password: person.password,
      next,
    });
    if (signedIn.status !== 303 || !signedIn.location) throw new Error(`sign-in failed: ${signedIn.status}`);
    page = await browser.request(signedIn.location);
  }
  if (page.status !== 200)
    throw new Error(`no consent page: ${page.status} ${page.location ?? page.html.slice(0, 300)}`);
  const answer = await browser.request('/oauth/authorize', {
    ...hiddenFields(page.html, '/oauth/authorize'),
    decision: opts.decision ?? 'allow',
  });
  if (answer.status !== 303 || !answer.location)
    throw new Error(`consent was not answered with a redirect: ${answer.status} ${answer.html.slice(0, 300)}`);
  return { redirect: new URL(answer.location), consentHtml: page.html, browser };
}
