import { html, type SafeHtml } from './html';
import { layout } from './layout';

/** A short page with one message and, optionally, a form or link to go on. */
export function messagePage(opts: { nonce: string; title: string; message: string; action?: SafeHtml }): string {
  return layout({
    title: opts.title,
    nonce: opts.nonce,
    body: html`<section>
<h1>${opts.title}</h1>
<p>${opts.message}</p>
${opts.action}
</section>`,
  });
}

export function signOutForm(csrf: string, label = 'Sign out'): SafeHtml {
  return html`<form method="post" action="/signout" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit">${label}</button></form>`;
}
