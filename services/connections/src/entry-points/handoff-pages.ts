import type { Platform } from '@postbus/contracts';
import { PLATFORM_NAMES } from '@postbus/platforms';
import type { HandoffOutcome } from '../connect/finish-connection';
import type { LinkProblem } from '../connect/start-authorization.use-case';

/** The small server-rendered pages of the handoff: no scripts, one form at most. */

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}h1{font-size:1.4rem}button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:1px solid #444;background:#111;color:#fff;cursor:pointer}label{display:flex;gap:.6rem;align-items:center;margin:.5rem 0}img{width:32px;height:32px;border-radius:50%}.muted{color:#666;font-size:.9rem}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · Postbus</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The link's landing page: one button that uses the link and goes to the platform. */
export function connectPage(platform: Platform, action: string, csrf: string, expiresAt: Date): string {
  const name = PLATFORM_NAMES[platform];
  return page(
    `Connect ${name}`,
    `<h1>Connect your ${escapeHtml(name)} account</h1>
<p>A program asked to publish to a ${escapeHtml(name)} account through Postbus. Continue to sign in with ${escapeHtml(name)} and choose what Postbus may do.</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit">Continue to ${escapeHtml(name)}</button></form>
<p class="muted">This link works once and expires at ${escapeHtml(expiresAt.toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>`,
  );
}

/**
 * Bluesky's landing page: the account's handle and an app password, sent to this service only
 * (form-action 'self'). App passwords are made in the Bluesky app (Settings → Privacy and
 * security → App passwords) and can be revoked there one by one.
 */
export function blueskyConnectPage(
  action: string,
  csrf: string,
  expiresAt: Date,
  problem?: string,
  oauthOffered = false,
): string {
  // "Sign in with Bluesky" (atproto OAuth): the handle alone; the person signs in and consents at their own server.
  const oauth = oauthOffered
    ? `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<label for="handle">Handle</label><input id="handle" name="handle" autocomplete="username" placeholder="alice.bsky.social" required>
<p><button type="submit">Sign in with Bluesky</button></p></form>
<p>Or connect with an app password:</p>`
    : '';
  return page(
    'Connect Bluesky',
    `<h1>Connect your Bluesky account</h1>
<p>A program asked to publish to a Bluesky account through Postbus. ${oauthOffered ? 'Sign in with Bluesky on your own server, or use' : 'Sign in with'} the account's handle and an <strong>app password</strong> (never your main password): create one in Bluesky under Settings → Privacy and security → App passwords.</p>
${problem ? `<p role="alert"><strong>${escapeHtml(problem)}</strong></p>` : ''}${oauth}<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<label for="identifier">Handle or DID</label><input id="identifier" name="identifier" autocomplete="username" placeholder="alice.bsky.social" required>
<label for="appPassword">App password</label><input id="appPassword" name="appPassword" type="password" autocomplete="off" placeholder="xxxx-xxxx-xxxx-xxxx" required>
<p><button type="submit">Connect Bluesky</button></p></form>
<p class="muted">Postbus trades the app password for a Bluesky session and does not keep it; revoking the app password in Bluesky disconnects Postbus. This link works once and expires at ${escapeHtml(expiresAt.toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>`,
  );
}

/**
 * Mastodon's landing page: the person names the server (instance) the account lives on; Postbus
 * registers itself there if it has not yet, then sends the person to that server's consent page.
 */
export function mastodonConnectPage(
  action: string,
  csrf: string,
  expiresAt: Date,
  problem?: string,
  instance = '',
): string {
  return page(
    'Connect Mastodon',
    `<h1>Connect your Mastodon account</h1>
<p>A program asked to publish to a Mastodon account through Postbus. Enter the address of the Mastodon server your account is on (the part after the second @ of your address, such as mastodon.social); you then sign in there and choose what Postbus may do.</p>
${problem ? `<p role="alert"><strong>${escapeHtml(problem)}</strong></p>` : ''}<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<label for="instance">Your Mastodon server</label><input id="instance" name="instance" autocomplete="url" placeholder="mastodon.social" value="${escapeHtml(instance)}" required>
<p><button type="submit">Continue to Mastodon</button></p></form>
<p class="muted">Postbus asks to post statuses and upload media, and to read which account it is. You can revoke its access in your server's settings (Preferences → Account → Authorized apps). This link works once and expires at ${escapeHtml(expiresAt.toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>`,
  );
}

const PROBLEMS: Record<LinkProblem, { status: number; title: string; text: string }> = {
  unknown: { status: 404, title: 'Unknown link', text: 'This connection link does not exist. Ask for a new one.' },
  expired: { status: 410, title: 'Link expired', text: 'This connection link has expired. Ask for a new one.' },
  used: {
    status: 410,
    title: 'Link already used',
    text: 'This connection link was already used; each link works once. Ask for a new one if the connection did not finish.',
  },
  completed: {
    status: 410,
    title: 'Already connected',
    text: 'This connection link was already used to connect an account.',
  },
  failed: {
    status: 410,
    title: 'Link no longer valid',
    text: 'The connection started with this link failed. Ask for a new link.',
  },
};

export function linkProblemPage(problem: LinkProblem): { status: number; html: string } {
  const p = PROBLEMS[problem];
  return { status: p.status, html: page(p.title, `<h1>${escapeHtml(p.title)}</h1><p>${escapeHtml(p.text)}</p>`) };
}

export function outcomePage(outcome: HandoffOutcome, chooseAction?: string): { status: number; html: string } {
  switch (outcome.kind) {
    case 'connected': {
      const name = PLATFORM_NAMES[outcome.platform];
      return {
        status: 200,
        html: page(
          `${name} connected`,
          `<h1>${escapeHtml(name)} connected</h1><p>@${escapeHtml(outcome.handle)} is ${outcome.reconnected ? 'reconnected' : 'connected'} to Postbus. You can close this window.</p>`,
        ),
      };
    }
    case 'choose': {
      const name = PLATFORM_NAMES[outcome.platform];
      const what = outcome.platform === 'facebook' ? 'Page' : outcome.platform === 'youtube' ? 'channel' : 'account';
      const options = outcome.choices
        .map(
          (c, i) =>
            `<label><input type="radio" name="account" value="${escapeHtml(c.platformUserId)}"${i === 0 ? ' checked' : ''}>${c.profileImageUrl ? `<img alt="" src="${escapeHtml(c.profileImageUrl)}">` : ''}<span>${escapeHtml(c.displayName)} <span class="muted">@${escapeHtml(c.handle)}</span></span></label>`,
        )
        .join('');
      return {
        status: 200,
        html: page(
          `Choose a ${what}`,
          `<h1>Choose the ${escapeHtml(name)} ${what} to connect</h1><form method="post" action="${escapeHtml(chooseAction ?? '')}"><input type="hidden" name="state" value="${escapeHtml(outcome.state)}">${options}<p><button type="submit">Connect this ${what}</button></p></form>`,
        ),
      };
    }
    case 'failed': {
      const name = PLATFORM_NAMES[outcome.platform];
      return {
        status: 400,
        html: page(
          'Connection failed',
          `<h1>The ${escapeHtml(name)} connection failed</h1><p>${escapeHtml(outcome.reason)}</p><p>Ask for a new connection link to try again.</p>`,
        ),
      };
    }
    case 'invalid':
      return {
        status: 400,
        html: page(
          'Connection not possible',
          `<h1>This connection cannot continue</h1><p>${escapeHtml(outcome.reason)}</p>`,
        ),
      };
  }
}

export function errorPage(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}
