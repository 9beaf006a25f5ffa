import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Rpc, SCOPES } from '@postbus/contracts';
import { connectSandboxProfile, createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let browser: Browser;
let shots: string;

const PASSWORD = 'a long enough password';
const ZONE = 'America/New_York';
/** A week in June 2027, Monday to Sunday: New York is on EDT (UTC−4), so late evenings there are the next day in UTC. */
const WEEK = ['2027-06-07', '2027-06-08', '2027-06-09', '2027-06-10', '2027-06-11', '2027-06-12', '2027-06-13'];
/** Short enough to be shown whole (the calendar cuts captions at 80 characters). */
const HOSTILE = `<img src=x onerror="document.title='pwned'"><b>bold</b></td><script>1</script>`;

interface Person {
  email: string;
  key: string;
  threads: { id: string; handle: string };
  facebook: { id: string; handle: string };
}
let person: Person;
/** Post ids by what they stand for. */
const posts: Record<string, string> = {};

async function api(path: string, opts: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: opts.method ?? (opts.body ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${person.key}`, ...(opts.body ? { 'content-type': 'application/json' } : {}) },
    body: opts.body ? JSON.stringify(opts.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const r = await api(path, { body });
  expect(r.status).toBe(201);
  return r.body.postIds[0];
}

const settled = (id: string) =>
  waitFor(
    async () => {
      const r = await api(`/api/v1/posts/${id}`);
      return r.body.status === 'scheduled' ? undefined : r.body;
    },
    { timeoutMs: 15_000, what: `post ${id} to leave scheduled` },
  );

beforeAll(async () => {
  env = await createTestEnv('auth_calendar');
  // The per-address limit of the pages on, high enough for this file: the calendar must be counted like every page.
  system = await startSystem(env, { RATE_LIMIT_PER_IP_PER_MINUTE: '100000' });
  browser = await launchChromium();
  shots = mkdtempSync(join(tmpdir(), 'postbus-calendar-'));

  const email = `calendar-${Date.now().toString(36)}@example.com`;
  const { accountId, userId } = await system.bus.rpc.call(Rpc.authCreateAccount, {
    email,
    password: PASSWORD,
    plan: 'pro',
  });
  const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
    accountId,
    userId,
    name: 'calendar test',
    scopes: [...SCOPES],
  });
  const suffix = accountId.slice(-6).toLowerCase();
  const threads = await connectSandboxProfile(
    system.bus.rpc,
    system.sandboxUrl,
    accountId,
    'threads',
    `cal_t_${suffix}`,
  );
  const facebook = await connectSandboxProfile(
    system.bus.rpc,
    system.sandboxUrl,
    accountId,
    'facebook',
    `cal_f_${suffix}`,
  );
  person = {
    email,
    key,
    threads: { id: threads.id, handle: threads.handle },
    facebook: { id: facebook.id, handle: facebook.handle },
  };

  const threadsPost = (caption: string, scheduledTime?: string) => ({
    platforms: ['threads'],
    caption,
    ...(scheduledTime && { scheduledTime }),
  });
  posts.lateTuesday = await create('/api/v1/posts', threadsPost('late tuesday in New York', '2027-06-09T03:30:00Z'));
  posts.fridayFacebook = await create('/api/v1/posts', {
    platforms: ['facebook'],
    caption: 'friday night on the page',
    scheduledTime: '2027-06-12T02:00:00Z',
  });
  posts.hostile = await create('/api/v1/posts', threadsPost(HOSTILE, '2027-06-09T16:00:00Z'));
  posts.cancelled = await create('/api/v1/posts', threadsPost('called off', '2027-06-07T12:00:00Z'));
  const cancelled = await api(`/api/v1/posts/${posts.cancelled}`, { method: 'DELETE' });
  expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
  posts.draft = await create('/api/v1/posts/drafts', threadsPost('still a draft', '2027-06-13T03:59:00Z'));
  posts.pending = await create('/api/v1/posts/drafts', threadsPost('waiting for a yes', '2027-06-14T03:00:00Z'));
  expect((await api(`/api/v1/posts/${posts.pending}/approval`, { body: {} })).body.status).toBe('pending_approval');

  // Published now through the sandbox: the first refused by the platform, the second posted.
  const fault = await fetch(`${system.sandboxUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'threads', mode: 'error', code: 100, count: 1 }),
  });
  expect(fault.ok).toBe(true);
  posts.failed = await create('/api/v1/posts', threadsPost('refused by the platform'));
  expect((await settled(posts.failed)).status).toBe('failed');
  posts.posted = await create('/api/v1/posts', threadsPost('out in the world'));
  expect((await settled(posts.posted)).status).toBe('posted');
});
afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await env?.drop();
  if (shots) rmSync(shots, { recursive: true, force: true });
});

async function signedIn(
  opts: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number }; email?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    viewport: opts.viewport,
  });
  const page = await context.newPage();
  await page.goto(`${system.baseUrl}/signin`);
  await page.fill('#email', opts.email ?? person.email);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(`${system.baseUrl}/settings`);
  return { context, page };
}

const calendarUrl = (query: Record<string, string>) =>
  `${system.baseUrl}/settings/calendar?${new URLSearchParams(query).toString()}`;
const entry = (page: Page, date: string, id: string) =>
  page.locator(`td[data-date="${date}"] li[data-post-id="${id}"]`);
/** Where each post of the page sits: post id → local day of its cell. */
const cellsOf = (page: Page) =>
  page.$$eval('td[data-date] li[data-post-id]', (items) =>
    Object.fromEntries(
      items.map((li) => [li.getAttribute('data-post-id'), li.closest('td')!.getAttribute('data-date')]),
    ),
  );

/** The local day YYYY-MM-DD of an instant in a zone. */
const localDay = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );

describe('the calendar page', () => {
  test('when a person opens the week in New York, then each post sits in its local day cell with its local time, its status in words and its colour', async () => {
    const { context, page } = await signedIn();
    await page.click('nav.pages a[href="/settings/calendar"]');
    await page.waitForURL(/\/settings\/calendar$/);
    const answer = await page.goto(calendarUrl({ view: 'week', date: '2027-06-09', timezone: ZONE }));
    expect(answer!.status()).toBe(200);
    // Counted by the gateway's per-address limit of the pages, like /settings.
    expect(answer!.headers()['ratelimit-limit']).toBe('100000');

    expect(await page.textContent('h1')).toBe('Calendar');
    expect(await page.textContent('#range-title')).toBe('7 June 2027 – 13 June 2027 (America/New_York)');
    expect(
      await page.$$eval('table.calendar thead th', (ths) => ths.map((th) => th.getAttribute('data-date'))),
    ).toEqual(WEEK);
    expect(await page.$$eval('table.calendar thead th', (ths) => ths.map((th) => th.getAttribute('scope')))).toEqual(
      Array(7).fill('col'),
    );
    expect(await page.locator('table.calendar tbody td').count()).toBe(7);

    expect(await cellsOf(page)).toEqual({
      [posts.cancelled]: '2027-06-07',
      [posts.lateTuesday]: '2027-06-08',
      [posts.hostile]: '2027-06-09',
      [posts.fridayFacebook]: '2027-06-11',
      [posts.draft]: '2027-06-12',
      [posts.pending]: '2027-06-13',
    });
    const late = entry(page, '2027-06-08', posts.lateTuesday);
    expect(await late.locator('time').textContent()).toBe('23:30');
    expect(await late.locator('time').getAttribute('datetime')).toBe('2027-06-09T03:30:00.000Z');
    expect(await late.locator('.profile').textContent()).toBe(`threads @${person.threads.handle}`);
    expect(await entry(page, '2027-06-11', posts.fridayFacebook).locator('time').textContent()).toBe('22:00');
    expect(await entry(page, '2027-06-12', posts.draft).locator('time').textContent()).toBe('23:59');

    const looks = await page.$$eval('li[data-post-id]', (items) =>
      Object.fromEntries(
        items.map((li) => [
          li.getAttribute('data-post-id'),
          {
            status: li.querySelector('.status')!.textContent,
            edge: li.ownerDocument.defaultView.getComputedStyle(li).borderLeftColor,
          },
        ]),
      ),
    );
    expect(looks).toEqual({
      [posts.cancelled]: { status: 'Cancelled', edge: 'rgb(107, 114, 128)' },
      [posts.lateTuesday]: { status: 'Scheduled', edge: 'rgb(29, 78, 216)' },
      [posts.hostile]: { status: 'Scheduled', edge: 'rgb(29, 78, 216)' },
      [posts.fridayFacebook]: { status: 'Scheduled', edge: 'rgb(29, 78, 216)' },
      [posts.draft]: { status: 'Draft', edge: 'rgb(161, 98, 7)' },
      [posts.pending]: { status: 'Pending approval', edge: 'rgb(126, 34, 206)' },
    });
    const legend = await page.$$eval('ul.legend li', (items) =>
      items.map((li) => [li.textContent, li.ownerDocument.defaultView.getComputedStyle(li).borderLeftColor]),
    );
    expect(Object.fromEntries(legend)).toEqual({
      Scheduled: 'rgb(29, 78, 216)',
      Posted: 'rgb(21, 128, 61)',
      Failed: 'rgb(185, 28, 28)',
      Cancelled: 'rgb(107, 114, 128)',
      Draft: 'rgb(161, 98, 7)',
      'Pending approval': 'rgb(126, 34, 206)',
      Rejected: 'rgb(194, 65, 12)',
    });

    // The same week read in UTC: the evening posts move to the next day.
    await page.goto(calendarUrl({ view: 'week', date: '2027-06-09', timezone: 'UTC' }));
    expect(await cellsOf(page)).toEqual({
      [posts.cancelled]: '2027-06-07',
      [posts.lateTuesday]: '2027-06-09',
      [posts.hostile]: '2027-06-09',
      [posts.fridayFacebook]: '2027-06-12',
      [posts.draft]: '2027-06-13',
    });
    expect(await entry(page, '2027-06-09', posts.lateTuesday).locator('time').textContent()).toBe('03:30');
    await context.close();
  });

  test('when the month view is opened and paged without JavaScript, then the month is whole weeks, days outside it are dimmed, and previous and next move by a month', async () => {
    const { context, page } = await signedIn({ javaScriptEnabled: false });
    await page.goto(calendarUrl({ view: 'month', date: '2027-06-20', timezone: ZONE }));
    expect(await page.textContent('#range-title')).toBe('June 2027 (America/New_York)');
    const days = await page
      .locator('table.calendar tbody td')
      .evaluateAll((tds) => tds.map((td) => [td.getAttribute('data-date'), td.className]));
    expect(days).toHaveLength(35);
    expect(days[0]).toEqual(['2027-05-31', 'outside']);
    expect(days[1]).toEqual(['2027-06-01', '']);
    expect(days[34]).toEqual(['2027-07-04', 'outside']);
    expect(await page.locator('table.calendar tbody tr').count()).toBe(5);
    expect(await page.locator('table.calendar thead th').allTextContents()).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    expect(await entry(page, '2027-06-08', posts.lateTuesday).locator('time').textContent()).toBe('23:30');
    expect(await entry(page, '2027-06-13', posts.pending).locator('.status').textContent()).toBe('Pending approval');

    await page.click('a[rel=next]');
    expect(await page.textContent('#range-title')).toBe('July 2027 (America/New_York)');
    await page.click('a[rel=prev]');
    await page.click('a[rel=prev]');
    expect(await page.textContent('#range-title')).toBe('May 2027 (America/New_York)');
    expect(new URL(page.url()).searchParams.get('timezone')).toBe(ZONE);

    // The form, sent by the browser itself: back to a week.
    await page.selectOption('#view', 'week');
    await page.fill('#date', '2027-06-09');
    await page.click('form.filters button[type=submit]');
    expect(await page.textContent('#range-title')).toBe('7 June 2027 – 13 June 2027 (America/New_York)');
    await page.click('a[rel=next]');
    expect(await page.textContent('#range-title')).toBe('14 June 2027 – 20 June 2027 (America/New_York)');
    await context.close();
  });

  test('when a post is opened, then it shows its outcome: the permalink of a posted one, the reason of a failed one, the approval link of one awaiting approval', async () => {
    const { context, page } = await signedIn({ javaScriptEnabled: false });
    const posted = (await api(`/api/v1/posts/${posts.posted}`)).body;
    const failed = (await api(`/api/v1/posts/${posts.failed}`)).body;
    expect(posted.permalink).toMatch(/^https:\/\/www\.threads\.net\//);
    expect(failed.failedReason).toEqual(expect.any(String));

    // Published just now: shown on the local day of their scheduled time, whatever day that is.
    const day = localDay(posted.scheduledTime, ZONE);
    await page.goto(calendarUrl({ view: 'week', date: day, timezone: ZONE }));
    expect(await entry(page, day, posts.posted).locator('.status').textContent()).toBe('Posted');
    const failedDay = localDay(failed.scheduledTime, ZONE);
    if (failedDay === day)
      expect(await entry(page, failedDay, posts.failed).locator('.status').textContent()).toBe('Failed');

    await entry(page, day, posts.posted).locator('a').click();
    await page.waitForURL(new RegExp(`/settings/calendar/posts/${posts.posted}\\?`));
    expect(await page.textContent('#post-status')).toBe('Posted');
    expect(await page.getAttribute('#permalink', 'href')).toBe(posted.permalink);
    await page.click('text=← Back to the calendar');
    expect(await page.textContent('#range-title')).toContain('(America/New_York)');
    expect(await entry(page, day, posts.posted).count()).toBe(1);

    await page.goto(calendarUrl({ view: 'week', date: failedDay, timezone: ZONE }));
    await entry(page, failedDay, posts.failed).locator('a').click();
    expect(await page.textContent('#post-status')).toBe('Failed');
    expect(await page.textContent('#failed-reason')).toBe(failed.failedReason);

    await page.goto(calendarUrl({ view: 'week', date: '2027-06-13', timezone: ZONE }));
    await entry(page, '2027-06-13', posts.pending).locator('a').click();
    expect(await page.textContent('#post-status')).toBe('Pending approval');
    const approval = (await api(`/api/v1/posts/${posts.pending}/approval`)).body;
    expect(approval.approvalUrl).toEqual(expect.any(String));
    expect(await page.getAttribute('#approval-link', 'href')).toBe(approval.approvalUrl);
    expect(await page.textContent('dl.post-facts')).toContain(
      'Sunday, 13 June 2027 at 23:00 (America/New_York) · 2027-06-14 03:00 UTC',
    );
    await page.click('#approval-link');
    expect(await page.content()).toContain('waiting for a yes');
    await context.close();
  });

  test('when a caption holds HTML or a permalink is no web address, then the calendar and the post page show them as text and nothing of them runs', async () => {
    const { context, page } = await signedIn();
    await page.goto(calendarUrl({ view: 'week', date: '2027-06-09', timezone: ZONE }));
    const hostile = entry(page, '2027-06-09', posts.hostile);
    expect(await hostile.locator('.caption').textContent()).toBe(HOSTILE);
    expect(await page.locator('table.calendar img, table.calendar b, table.calendar script').count()).toBe(0);
    expect(await page.locator('table.calendar tbody td').count()).toBe(7);
    expect(await page.title()).toBe('Calendar · Postbus');

    await hostile.locator('a').click();
    expect(await page.textContent('#caption')).toBe(HOSTILE);
    expect(await page.locator('main img, main b, main script').count()).toBe(0);
    expect(await page.title()).toBe('Post · Postbus');

    // A permalink that is not a web address (no platform sends one; set straight in the store) stays text.
    const odd = await create('/api/v1/posts', {
      platforms: ['threads'],
      caption: 'odd permalink',
      scheduledTime: '2027-07-07T15:00:00Z',
    });
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `UPDATE posts.posts SET status = 'posted', permalink = 'javascript:document.title=1' WHERE id = $1`,
        [odd],
      );
    } finally {
      await db.end();
    }
    await page.goto(calendarUrl({ view: 'week', date: '2027-07-07', timezone: 'UTC' }));
    await entry(page, '2027-07-07', odd).locator('a').click();
    expect(await page.textContent('#post-status')).toBe('Posted');
    expect(await page.textContent('#permalink')).toBe('javascript:document.title=1');
    expect(await page.locator('a#permalink, a[href^="javascript:"]').count()).toBe(0);
    await context.close();
  });

  test('when a profile is chosen, then only its posts are shown and the choice is kept while paging', async () => {
    const { context, page } = await signedIn({ javaScriptEnabled: false });
    await page.goto(calendarUrl({ view: 'week', date: '2027-06-09', timezone: ZONE }));
    expect(await page.locator('#profile option').allTextContents()).toEqual([
      'All profiles',
      `threads @${person.threads.handle}`,
      `facebook @${person.facebook.handle}`,
    ]);
    await page.selectOption('#profile', person.facebook.id);
    await page.click('form.filters button[type=submit]');
    expect(new URL(page.url()).searchParams.get('profileId')).toBe(person.facebook.id);
    expect(await cellsOf(page)).toEqual({ [posts.fridayFacebook]: '2027-06-11' });
    await page.click('a[rel=next]');
    await page.click('a[rel=prev]');
    expect(await cellsOf(page)).toEqual({ [posts.fridayFacebook]: '2027-06-11' });
    expect(await page.inputValue('#profile')).toBe(person.facebook.id);
    await context.close();
  });

  test('when the week is shown at 1280×800, then the seven day columns are equal, side by side, nothing overflows sideways and the legend is in view', async () => {
    const { context, page } = await signedIn({ viewport: { width: 1280, height: 800 } });
    await page.goto(calendarUrl({ view: 'week', date: '2027-06-09', timezone: ZONE }));
    const file = join(shots, 'calendar-week.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(10_000);

    const boxes = async (selector: string) =>
      Promise.all((await page.locator(selector).all()).map(async (l) => (await l.boundingBox())!));
    const columns = await boxes('table.calendar thead th');
    const cells = await boxes('table.calendar tbody td');
    expect(columns).toHaveLength(7);
    const widths = columns.map((c) => c.width);
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThanOrEqual(2);
    expect(Math.min(...widths)).toBeGreaterThan(100);
    for (let i = 1; i < 7; i++) {
      expect(columns[i].x).toBeGreaterThanOrEqual(columns[i - 1].x + columns[i - 1].width - 1);
      expect(cells[i].x).toBeGreaterThanOrEqual(cells[i - 1].x + cells[i - 1].width - 1);
      expect(cells[i].y).toBe(cells[0].y);
    }
    // Measured in the page (this file is compiled without the DOM library: the page is reached through the elements).
    const sideways = await page.locator('body *').evaluateAll((elements) =>
      elements
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && (r.right > e.ownerDocument.documentElement.clientWidth + 0.5 || r.left < -0.5);
        })
        .map((e) => String(e.outerHTML).slice(0, 80)),
    );
    expect(sideways).toEqual([]);
    const width = await page
      .locator('html')
      .evaluate((html) => ({ scroll: html.scrollWidth as number, client: html.clientWidth as number }));
    expect(width.scroll).toBeLessThanOrEqual(width.client);
    expect(width.client).toBeLessThanOrEqual(1280);

    const legend = page.locator('ul.legend');
    expect(await legend.isVisible()).toBe(true);
    expect(await legend.locator('li').count()).toBe(7);
    for (const item of await legend.locator('li').all()) expect(await item.isVisible()).toBe(true);
    const legendBox = (await legend.boundingBox())!;
    const table = (await page.locator('table.calendar').boundingBox())!;
    expect(legendBox.height).toBeGreaterThan(10);
    expect(legendBox.y).toBeGreaterThanOrEqual(0);
    expect(legendBox.y + legendBox.height).toBeLessThanOrEqual(Math.min(800, table.y));
    await context.close();
  });

  test('when a post of another account or no post at all is asked for, then the page answers 404 and shows nothing of it', async () => {
    const email = `calendar-other-${Date.now().toString(36)}@example.com`;
    await system.bus.rpc.call(Rpc.authCreateAccount, { email, password: PASSWORD, plan: 'pro' });
    const { context, page } = await signedIn({ javaScriptEnabled: false, email });
    for (const id of [posts.lateTuesday, 'pst_missing']) {
      const answer = await page.goto(`${system.baseUrl}/settings/calendar/posts/${id}?timezone=UTC`);
      expect(answer!.status()).toBe(404);
      expect(await page.content()).not.toContain('late tuesday');
      expect(await page.locator('#post-status').count()).toBe(0);
    }
    await page.goto(calendarUrl({ view: 'month', date: '2027-06-09', timezone: ZONE }));
    expect(await page.locator('table.calendar tbody td').count()).toBe(35);
    expect(await page.locator('li[data-post-id]').count()).toBe(0);
    await context.close();
  });

  test('when a query value is wrong, then the page answers 400 naming it beside the form', async () => {
    const { context, page } = await signedIn({ javaScriptEnabled: false });
    for (const [query, field] of [
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ date: '2027-02-30' }, 'date'],
      [{ view: 'year' }, 'view'],
    ] as const) {
      const answer = await page.goto(calendarUrl(query));
      expect(answer!.status()).toBe(400);
      expect(await page.textContent('[role=alert]')).toContain(field);
      expect(await page.locator('table.calendar').count()).toBe(0);
      expect(await page.locator('form.filters').count()).toBe(1);
    }
    await context.close();
  });
});

test('when a signed-out visitor opens the calendar, then they are sent to sign in and come back to the same calendar', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const asked = `/settings/calendar?view=month&date=2027-06-01&timezone=${encodeURIComponent(ZONE)}`;
  await page.goto(`${system.baseUrl}${asked}`);
  expect(page.url()).toBe(`${system.baseUrl}/signin?next=${encodeURIComponent(asked)}`);
  expect(await page.locator('table.calendar').count()).toBe(0);
  const post = await context.request.get(`${system.baseUrl}/settings/calendar/posts/${posts.lateTuesday}`, {
    maxRedirects: 0,
  });
  expect(post.status()).toBe(303);
  expect(post.headers().location).toMatch(/^\/signin\?next=/);
  expect(await post.text()).not.toContain('late tuesday');

  await page.fill('#email', person.email);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(`${system.baseUrl}${asked}`);
  expect(await page.textContent('#range-title')).toBe('June 2027 (America/New_York)');
  await context.close();
});
