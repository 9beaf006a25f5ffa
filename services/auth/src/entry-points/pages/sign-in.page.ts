import { html } from './html';
import { layout } from './layout';

export function signInPage(opts: {
  nonce: string;
  csrf: string;
  error?: string;
  notice?: string;
  email?: string;
  next?: string;
}): string {
  return layout({
    title: 'Sign in',
    nonce: opts.nonce,
    header: html`<a href="/signup">Sign up</a>`,
    body: html`<section>
<h1>Sign in</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
<form method="post" action="/signin">
  <input type="hidden" name="_csrf" value="${opts.csrf}">
  ${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : ''}
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${opts.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <p><button type="submit">Sign in</button></p>
</form>
<p>No account yet? <a href="/signup">Sign up</a> for a free trial.</p>
</section>`,
  });
}
