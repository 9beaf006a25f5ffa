import type { Approval, Post } from '@postbus/contracts';
import { settingsNav } from './calendar-nav';
import { CALENDAR_STYLE } from './calendar.page';
import { calendarHref, type CalendarRequest } from './calendar-range';
import { statusClass, statusLabel } from './calendar-status';
import { html } from './html';
import { layout } from './layout';
import type { ProfileChoice } from './settings.page';

export interface CalendarPostView {
  nonce: string;
  csrf: string;
  email: string;
  post: Post;
  /** The latest approval request, read only while the post awaits approval. */
  approval?: Approval;
  profiles?: ProfileChoice[];
  /** The calendar the post was opened from: its zone shows the times, its address is the way back. */
  request: CalendarRequest;
}

/** Only a web address becomes a link; anything else a platform answered is shown as text. */
const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

function localTime(iso: string, timezone: string): string {
  const at = new Date(iso);
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'short' }).format(
    at,
  );
  return `${local} (${timezone}) · ${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

function outcome(v: CalendarPostView) {
  const p = v.post;
  switch (p.status) {
    case 'posted':
      return p.permalink
        ? isWebAddress(p.permalink)
          ? html`<a id="permalink" href="${p.permalink}" rel="noopener noreferrer">${p.permalink}</a>`
          : html`<span id="permalink">${p.permalink}</span>`
        : html`Published; the platform has not given its address.`;
    case 'failed':
      return html`<span id="failed-reason">${p.failedReason ?? 'The platform gave no reason.'}</span>`;
    case 'pending_approval':
      return v.approval?.approvalUrl
        ? html`Waiting for a person to decide: <a id="approval-link" href="${v.approval.approvalUrl}">approve or reject this post</a> (the link works until ${v.approval.expiresAt.slice(0, 16).replace('T', ' ')} UTC).`
        : html`Waiting for a person to decide through the approval link sent for it.`;
    case 'scheduled':
      return html`Will be published at its scheduled time.`;
    case 'draft':
      return html`A draft: it is not published until it is scheduled or approved.`;
    case 'cancelled':
      return html`Cancelled: it will not be published.`;
    case 'rejected':
      return html`Rejected by the person asked to approve it: it will not be published.`;
    default:
      return '';
  }
}

export function calendarPostPage(v: CalendarPostView): string {
  const p = v.post;
  const profiles = new Map((v.profiles ?? []).map((x) => [x.id, x]));
  const profileNames = p.profileIds.map((id) => {
    const known = profiles.get(id);
    return known ? `${known.platform} @${known.handle}` : id;
  });
  return layout({
    title: 'Post',
    nonce: v.nonce,
    style: CALENDAR_STYLE,
    header: settingsNav('calendar', v.email, v.csrf),
    body: html`<p><a href="${calendarHref(v.request)}">← Back to the calendar</a></p>
<section aria-labelledby="post-title">
<h1 id="post-title">Post <code>${p.id}</code></h1>
<dl class="post-facts">
<dt>Status</dt><dd><span id="post-status" class="post ${statusClass(p.status)}">${statusLabel(p.status)}</span></dd>
<dt>Outcome</dt><dd id="outcome">${outcome(v)}</dd>
<dt>Scheduled</dt><dd>${p.scheduledTime ? localTime(p.scheduledTime, v.request.timezone) : 'No time yet'}</dd>
${p.publishedAt ? html`<dt>Published</dt><dd>${localTime(p.publishedAt, v.request.timezone)}</dd>` : ''}
<dt>Profile</dt><dd>${profileNames.join(', ')}</dd>
${p.title ? html`<dt>Title</dt><dd>${p.title}</dd>` : ''}
<dt>Caption</dt><dd class="caption-full" id="caption">${p.caption}</dd>
${p.warnings.length ? html`<dt>Warnings</dt><dd><ul>${p.warnings.map((w) => html`<li>${w.message}</li>`)}</ul></dd>` : ''}
</dl>
</section>`,
  });
}
