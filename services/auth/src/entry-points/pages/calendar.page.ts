import type { Calendar } from '@postbus/contracts';
import {
  calendarHref,
  calendarRange,
  dayHeading,
  weekdayName,
  type CalendarForm,
  type CalendarRange,
  type CalendarRequest,
} from './calendar-range';
import { STATUS_CSS, STATUS_STYLES, statusClass, statusLabel } from './calendar-status';
import { settingsNav } from './calendar-nav';
import { html } from './html';
import { layout } from './layout';
import type { ProfileChoice } from './settings.page';

type CalendarPost = Calendar['days'][number]['posts'][number];

export interface CalendarPageView {
  nonce: string;
  csrf: string;
  email: string;
  /** The values in the form: what was asked, shown again beside an error. */
  form: CalendarForm;
  /** Absent with an error: nothing could be read. */
  request?: CalendarRequest;
  calendar?: Calendar;
  /** The account's connected profiles; undefined when they could not be read just now. */
  profiles?: ProfileChoice[];
  error?: string;
}

export const CALENDAR_STYLE = `
  main { max-width: 80rem; }
  .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
  .filters label { margin: 0 0 .2rem; }
  .filters input, .filters select { width: auto; max-width: 16rem; }
  .pager { display: flex; gap: 1rem; margin: .8rem 0; }
  .legend { display: flex; flex-wrap: wrap; gap: .4rem 1rem; list-style: none; padding: 0; margin: .5rem 0 1rem; }
  .legend li, .post { border-left: 5px solid #9aa1ad; border-radius: 3px; padding: .1rem .4rem; }
  table.calendar { table-layout: fixed; width: 100%; }
  table.calendar th, table.calendar td { border: 1px solid #dde1e7; padding: .3rem; overflow-wrap: anywhere; }
  table.calendar td { height: 6rem; }
  table.week td { height: 14rem; }
  table.calendar td.outside { background: #f3f4f6; color: #69707d; }
  .day-number { display: block; font-weight: 600; font-size: 13px; }
  ol.posts { list-style: none; margin: 0; padding: 0; }
  .post { margin: 0 0 .3rem; font-size: 13px; line-height: 1.35; }
  .post a { color: inherit; text-decoration: none; display: block; }
  .post a:hover .caption, .post a:focus .caption { text-decoration: underline; }
  .post .status { font-weight: 600; }
  .status-cancelled .caption, .status-rejected .caption { text-decoration: line-through; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  dl.post-facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
  dl.post-facts dt { font-weight: 600; }
  dl.post-facts dd { margin: 0; overflow-wrap: anywhere; }
  .caption-full { white-space: pre-wrap; }
${STATUS_CSS}
`;

const option = (value: string, label: string, selected: boolean) =>
  html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
const profileName = (p: ProfileChoice) => `${p.platform} @${p.handle}`;

function filterForm(v: CalendarPageView) {
  const f = v.form;
  const profiles = v.profiles ?? [];
  const unknownProfile = f.profileId && !profiles.some((p) => p.id === f.profileId);
  return html`<form method="get" action="/settings/calendar" class="filters" aria-label="What to show">
  <div><label for="view">View</label><select id="view" name="view">${option('week', 'Week', f.view === 'week')}${option('month', 'Month', f.view === 'month')}</select></div>
  <div><label for="date">Day</label><input id="date" name="date" type="date" value="${v.request?.date ?? f.date}"></div>
  <div><label for="timezone">Time zone</label><input id="timezone" name="timezone" type="text" maxlength="64" value="${f.timezone}" placeholder="Europe/Berlin"></div>
  <div><label for="profile">Profile</label><select id="profile" name="profileId">${option('', 'All profiles', !f.profileId)}${profiles.map((p) => option(p.id, profileName(p), p.id === f.profileId))}${unknownProfile ? option(f.profileId, f.profileId, true) : ''}</select></div>
  <div><button type="submit">Show</button></div>
</form>
${v.profiles === undefined ? html`<p class="muted">Your connected profiles cannot be listed right now; posts of every profile are shown.</p>` : ''}`;
}

function pager(r: CalendarRequest, range: CalendarRange) {
  const unit = r.view === 'week' ? 'week' : 'month';
  return html`<nav class="pager" aria-label="Other ${unit}s">
<a rel="prev" href="${calendarHref({ ...r, date: range.previous })}">← Previous ${unit}</a>
<a href="${calendarHref({ ...r, date: '' })}">This ${unit}</a>
<a rel="next" href="${calendarHref({ ...r, date: range.next })}">Next ${unit} →</a>
</nav>`;
}

function legend() {
  return html`<h3 class="visually-hidden" id="legend-title">Status colours</h3>
<ul class="legend" aria-labelledby="legend-title">${Object.keys(STATUS_STYLES).map((s) => html`<li class="${statusClass(s)}">${statusLabel(s)}</li>`)}</ul>`;
}

function postItem(p: CalendarPost, r: CalendarRequest, profiles: Map<string, ProfileChoice>) {
  const profile = profiles.get(p.profileId);
  return html`<li class="post ${statusClass(p.status)}" data-post-id="${p.id}" data-status="${p.status}"><a href="${calendarHref(r, `/settings/calendar/posts/${encodeURIComponent(p.id)}`)}">
<time datetime="${p.scheduledTime}">${p.local}</time> · <span class="status">${statusLabel(p.status)}</span><br>
<span class="profile">${profile ? profileName(profile) : p.platform}</span><br>
<span class="caption">${p.caption || '(no caption)'}</span></a></li>`;
}

function dayCell(
  date: string,
  posts: CalendarPost[],
  v: CalendarPageView,
  range: CalendarRange,
  profiles: Map<string, ProfileChoice>,
) {
  const r = v.request!;
  const outside = range.month !== undefined && !date.startsWith(range.month);
  const number = r.view === 'month' ? html`<span class="day-number">${dayHeading(date)}</span>` : '';
  const list = posts.length
    ? html`<ol class="posts">${posts.map((p) => postItem(p, r, profiles))}</ol>`
    : html`<span class="visually-hidden">No posts</span>`;
  return html`<td data-date="${date}"${outside ? html` class="outside"` : ''}>${number}${list}</td>`;
}

function grid(v: CalendarPageView, range: CalendarRange) {
  const r = v.request!;
  const byDate = new Map((v.calendar?.days ?? []).map((d) => [d.date, d.posts]));
  const profiles = new Map((v.profiles ?? []).map((p) => [p.id, p]));
  const headings = range.weeks[0].map(
    (date) =>
      html`<th scope="col"${r.view === 'week' ? html` data-date="${date}"` : ''}>${r.view === 'week' ? dayHeading(date) : weekdayName(date)}</th>`,
  );
  return html`<table class="calendar ${r.view}">
<caption class="visually-hidden">Posts by local day in ${v.calendar?.timezone ?? r.timezone}</caption>
<thead><tr>${headings}</tr></thead>
<tbody>${range.weeks.map((week) => html`<tr>${week.map((date) => dayCell(date, byDate.get(date) ?? [], v, range, profiles))}</tr>`)}</tbody>
</table>`;
}

export function calendarPage(v: CalendarPageView): string {
  const r = v.request;
  const range = r && calendarRange(r.view, r.date);
  return layout({
    title: 'Calendar',
    nonce: v.nonce,
    style: CALENDAR_STYLE,
    header: settingsNav('calendar', v.email, v.csrf),
    body: html`<section>
<h1>Calendar</h1>
<p class="muted">Your posts by the local day and time they are scheduled for. Open a post to see what became of it.</p>
${v.error ? html`<p class="error" role="alert">${v.error}</p>` : ''}
${filterForm(v)}
</section>
${
  r && range
    ? html`<section aria-labelledby="range-title">
<h2 id="range-title">${range.title} <span class="muted">(${v.calendar?.timezone ?? r.timezone})</span></h2>
${pager(r, range)}
${legend()}
${v.calendar?.truncated ? html`<p class="notice" role="status">There are more posts in this range than one page shows; the earliest are listed. Choose a profile or the week view to see the rest.</p>` : ''}
${grid(v, range)}
</section>`
    : ''
}`,
  });
}
