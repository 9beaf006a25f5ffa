/**
 * A cookie jar of one browser without JavaScript, sent to every URL (the tests only talk to the
 * gateway, the services and the sandbox); never follows redirects by itself and answers `location`
 * as an absolute URL.
 */
export class Visitor {
  readonly cookies = new Map<string, string>();

  async get(url: string): Promise<{ status: number; html: string; location: string | null }> {
    return this.send(url, { method: 'GET' });
  }

  async post(
    url: string,
    fields: Record<string, string | string[]>,
  ): Promise<{ status: number; html: string; location: string | null }> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of ([] as string[]).concat(v)) form.append(k, one);
    return this.send(url, { method: 'POST', body: form });
  }

  private async send(url: string, init: RequestInit) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (value && !/expires=Thu, 01 Jan 1970/i.test(set)) this.cookies.set(pair.slice(0, at), value);
      else this.cookies.delete(pair.slice(0, at));
    }
    const location = res.headers.get('location');
    return {
      status: res.status,
      html: await res.text(),
      location: location ? new URL(location, url).toString() : null,
    };
  }
}
