import { html } from './html';
import { layout } from './layout';

export function signUpPage(opts: {
  nonce: string;
  csrf: string;
  error?: string;
  email?: string;
  name?: string;
}): string {
  return layout({
    title: 'Sign up',
    nonce: opts.nonce,
    header: html`<a href="/signin">Sign in</a>`,
    body: html`<section>
<h1>Create your Postbus account</h1>
<p class="muted">Your 14-day free trial starts now; no card needed.</p>
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
<form method="post" action="/signup">
  <input type="hidden" name="_csrf" value="${opts.csrf}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${opts.email ?? ''}">
  <label for="name">Company or project name (optional)</label>
  <input id="name" name="name" type="text" autocomplete="organization" maxlength="100" value="${opts.name ?? ''}">
  <label for="password">Password (at least 8 characters)</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
  <p><button type="submit">Create account</button></p>
</form>
<p>Already have an account? <a href="/signin">Sign in</a>.</p>
</section>`,
  });
}
