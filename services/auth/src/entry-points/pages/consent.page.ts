import type { AuthorizationRequest } from '../../oauth/authorization-request';
import { SCOPE_DESCRIPTIONS } from '../../oauth/oauth-scopes';
import { redirectHost } from '../../oauth/redirect-uri.rules';
import { html } from './html';
import { layout } from './layout';
import { signOutForm } from './message.page';

/**
 * Asks the signed-in person whether an application may act for them: its name, where the answer
 * sends them (the redirect host), and what each scope allows. The form repeats the request.
 */
export function consentPage(opts: {
  nonce: string;
  csrf: string;
  email: string;
  request: AuthorizationRequest;
  params: Record<string, string>;
}): string {
  const { client, scopes, redirectUri } = opts.request;
  const origin =
    client.source === 'metadata_document'
      ? html`<p class="muted">Identified by its metadata document at <code>${new URL(client.id).host}</code>.</p>`
      : html`<p class="muted">This application registered itself; Postbus has not verified who runs it. Allow it only if you started this connection.</p>`;
  return layout({
    title: 'Allow access',
    nonce: opts.nonce,
    header: signOutForm(opts.csrf),
    body: html`<section>
<h1>Allow <span id="client-name">${client.name}</span> to use your Postbus account?</h1>
${origin}
<p>It will be able to:</p>
<ul id="scopes">
${scopes.map((s) => html`<li><code>${s}</code> — ${SCOPE_DESCRIPTIONS[s]}</li>`)}
</ul>
<p>When you answer, you go back to <strong id="redirect-host">${redirectHost(redirectUri)}</strong>.</p>
<p class="muted">Signed in as ${opts.email}. You can revoke this access at any time; the application then has to ask again.</p>
<form method="post" action="/oauth/authorize">
  <input type="hidden" name="_csrf" value="${opts.csrf}">
  ${Object.entries(opts.params).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
  <p><button type="submit" name="decision" value="allow" id="allow">Allow</button> <button type="submit" name="decision" value="deny" id="deny">Deny</button></p>
</form>
</section>`,
  });
}
