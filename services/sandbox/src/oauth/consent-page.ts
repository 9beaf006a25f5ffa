import type { Platform } from '@postbus/contracts';
import type { SandboxUser } from '../users';

export const PLATFORM_TITLES: Record<Platform, string> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  threads: 'Threads',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  linkedin: 'LinkedIn',
  x: 'X',
  pinterest: 'Pinterest',
};

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0}label{display:block;margin:.3rem 0}button{font:inherit;padding:.5rem 1.2rem;margin-right:.5rem}.note{color:#666;font-size:.9rem}';

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/**
 * The platform's consent screen: which account(s) to grant (existing sandbox users or a new
 * one) and Approve / Deny. Facebook grants several Pages at once; the others one account.
 */
export function consentPage(opts: {
  platform: Platform;
  clientId: string;
  scopes: string[];
  params: Record<string, string>;
  users: SandboxUser[];
  multiple: boolean;
  suggestedHandle: string;
}): string {
  const title = PLATFORM_TITLES[opts.platform];
  const type = opts.multiple ? 'checkbox' : 'radio';
  const newest = opts.users[opts.users.length - 1];
  const hidden = Object.entries(opts.params)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  const accounts = opts.users
    .map(
      (u) =>
        `<label><input type="${type}" name="account" value="${escapeHtml(u.userId)}"${u === newest ? ' checked' : ''}> @${escapeHtml(u.handle)}</label>`,
    )
    .join('');
  const what = opts.platform === 'facebook' ? 'Pages' : opts.platform === 'youtube' ? 'channel' : 'account';
  return page(
    `${title} (sandbox): authorize ${opts.clientId}`,
    `<h1>${escapeHtml(title)} <small>sandbox</small></h1>
<p><strong>${escapeHtml(opts.clientId)}</strong> would like to access your ${escapeHtml(title)} ${what}:</p>
<ul>${opts.scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>
<form method="post">${hidden}
<fieldset><legend>${opts.multiple ? 'Choose the Pages to grant' : `Continue as`}</legend>${accounts}
<label><input type="${type}" name="account" value="new"${newest ? '' : ' checked'}> A new ${what}: <input name="handle" aria-label="New handle" value="${escapeHtml(opts.suggestedHandle)}" pattern="[A-Za-z0-9._]{1,30}"></label>
</fieldset>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p class="note">This is the Postbus platform sandbox; no real ${escapeHtml(title)} account is involved.</p>`,
  );
}

export function errorPage(platform: Platform, message: string): string {
  return page(
    `${PLATFORM_TITLES[platform]} (sandbox): error`,
    `<h1>Something went wrong</h1><p>${escapeHtml(message)}</p>`,
  );
}
