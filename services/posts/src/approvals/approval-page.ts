import type { ApprovalView } from './decide-approval.use-case';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const when = (d: Date | null) =>
  d
    ? new Date(d)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
    : 'at the next scheduler run';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#666}dd{margin:0}
.caption{white-space:pre-wrap;border:1px solid #ddd;border-radius:6px;padding:.75rem;background:#fafafa}
form{display:flex;gap:1rem;margin-top:1.5rem}button{font-size:1rem;padding:.6rem 1.4rem;border-radius:6px;border:0;cursor:pointer}
.approve{background:#1a7f37;color:#fff}.reject{background:#cf222e;color:#fff}.note{color:#666;font-size:.9rem}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="same-origin">
<title>${escape(title)} · Postbus</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function details({ post }: ApprovalView): string {
  const media = post.media_urls.length
    ? `<ul>${post.media_urls.map((u) => (/^https?:\/\//i.test(u) ? `<li><a href="${escape(u)}" rel="noreferrer noopener" target="_blank">${escape(u)}</a></li>` : `<li>${escape(u)}</li>`)).join('')}</ul>`
    : 'none';
  return `<dl>
<dt>Platform</dt><dd>${escape(post.platform)}</dd>
<dt>Profile</dt><dd>${escape(post.profile_id)}</dd>
${post.title ? `<dt>Title</dt><dd>${escape(post.title)}</dd>` : ''}
<dt>Publish</dt><dd>${escape(when(post.scheduled_time && new Date(post.scheduled_time) > new Date() ? post.scheduled_time : null))}</dd>
<dt>Media</dt><dd>${media}</dd>
${post.category ? `<dt>Category</dt><dd>${escape(post.category)}</dd>` : ''}
</dl>
<p class="caption" data-testid="caption">${escape(post.caption) || '<em>(no caption)</em>'}</p>`;
}

/** The page behind an approval link: the post and, while the request is pending, the two buttons. */
export function renderApprovalPage(view: ApprovalView, token: string): string {
  const { approval } = view;
  if (approval.status !== 'pending') return renderOutcome(view);
  return layout(
    'Approve a post',
    `<h1>Approve this post?</h1>${details(view)}
<form method="post" action="/approvals/${encodeURIComponent(approval.id)}">
<input type="hidden" name="token" value="${escape(token)}">
<button class="approve" name="decision" value="approve" type="submit">Approve</button>
<button class="reject" name="decision" value="reject" type="submit">Reject</button>
</form>
<p class="note">This link works once and expires ${escape(when(approval.expires_at))}.</p>`,
  );
}

/** What became of the request: approved, rejected, expired or cancelled. */
export function renderOutcome(view: ApprovalView): string {
  const { approval, post } = view;
  const headline: Record<string, string> = {
    approved: `Approved. The post is scheduled for ${when(post.scheduled_time)}.`,
    rejected: 'Rejected. The post will not be published.',
    expired: 'This approval link has expired. Ask for a new one.',
    cancelled: 'This post was cancelled; there is nothing to decide.',
  };
  return layout(
    'Post approval',
    `<h1 data-testid="outcome">${escape(headline[approval.status] ?? 'Nothing to decide.')}</h1>${details(view)}`,
  );
}

export function renderError(title: string, message: string): string {
  return layout(title, `<h1>${escape(title)}</h1><p>${escape(message)}</p>`);
}
