import { html, type SafeHtml } from './html';
import { signOutForm } from './message.page';

/** The header of the signed-in pages: settings and the calendar, who is signed in, and signing out. */
export function settingsNav(current: 'settings' | 'calendar', email: string, csrf: string): SafeHtml {
  const link = (href: string, name: string, here: boolean) =>
    here ? html`<a href="${href}" aria-current="page">${name}</a>` : html`<a href="${href}">${name}</a>`;
  return html`<nav class="pages" aria-label="Your account">${link('/settings', 'Settings', current === 'settings')} · ${link('/settings/calendar', 'Calendar', current === 'calendar')}</nav><span>${email} · ${signOutForm(csrf)}</span>`;
}
