import { LEGACY_WEBHOOK_ACCESS, SCOPES, type AccountSummary, type ApiKeySummary } from '@postbus/contracts';
import type { ConnectedApplication } from '../../oauth/grant.repository';
import type { KeyFormValues } from './key-form';
import { html } from './html';
import { layout } from './layout';
import { settingsNav } from './calendar-nav';

export interface ProfileChoice {
  id: string;
  platform: string;
  handle: string;
}

export interface SettingsView {
  nonce: string;
  csrf: string;
  email: string;
  account: AccountSummary;
  keys: ApiKeySummary[];
  /** The account's connected profiles; undefined when they could not be read just now. */
  profiles?: ProfileChoice[];
  /** Applications the person allowed through OAuth that can still act for them. */
  applications?: ConnectedApplication[];
  /** A key just created: its secret, shown this once. */
  created?: { key: string; name: string };
  form: KeyFormValues;
  error?: string;
  notice?: string;
}

export const SCOPE_HELP: Record<string, string> = {
  'post:write': 'create posts and publish jobs',
  'post:read': 'status, failures, permalinks',
  'post:draft': 'drafts',
  'media:write': 'upload media',
  'account:read': 'list connected accounts',
  'account:write': 'create connection requests',
  'approval:request': 'request post approval',
  'automation:read': 'export auto-reply templates',
  'automation:write': 'import templates, set up auto-reply',
  'webhook:read': 'list webhooks and their deliveries',
  'webhook:write': 'create, change, delete webhooks, rotate secrets, retry deliveries',
};

export const EXPIRY_CHOICES = [
  { value: '', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
];

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—');
const whenDate = (d: Date | null) => (d ? when(new Date(d).toISOString()) : 'never');

const COPY_SCRIPT = `
document.querySelectorAll('[data-copy]').forEach(function (button) {
  var input = document.getElementById(button.getAttribute('data-copy'));
  button.hidden = false;
  button.addEventListener('click', function () {
    input.select();
    navigator.clipboard.writeText(input.value).then(
      function () { button.textContent = 'Copied'; },
      function () { button.textContent = 'Press Ctrl+C to copy'; }
    );
  });
});`;

function planLine(a: AccountSummary) {
  if (a.tester) return html`Plan <strong>${a.plan}</strong> · tester account: the API is open to you during the beta.`;
  if (a.plan === 'trial' && a.entitled) return html`Free trial until <strong>${when(a.trialEndsAt)}</strong>.`;
  if (!a.entitled)
    return html`<span class="error">Your ${a.plan === 'trial' ? `free trial ended on ${when(a.trialEndsAt)}` : `plan is ${a.plan}`}: API calls answer <code>plan_required</code> until you choose a plan.</span>`;
  return html`Plan <strong>${a.plan}</strong>.`;
}

function createdBanner(created: { key: string; name: string }) {
  return html`<section class="notice new-key" role="status">
<h2>Your new key “${created.name}”</h2>
<p>Copy it now and keep it in server-side code only. It is shown this once; Postbus keeps only a hash of it.</p>
<input id="new-key" type="text" readonly value="${created.key}" aria-label="New API key">
<button type="button" data-copy="new-key" hidden>Copy</button>
</section>`;
}

function keyForm(v: SettingsView) {
  const f = v.form;
  const known = new Set((v.profiles ?? []).map((p) => p.id));
  return html`<section>
<h2>Create an API key</h2>
${v.error ? html`<p class="error" role="alert">${v.error}</p>` : ''}
<form method="post" action="/settings/keys">
  <input type="hidden" name="_csrf" value="${v.csrf}">
  <label for="key-name">Name</label>
  <input id="key-name" name="name" type="text" maxlength="100" required value="${f.name}" placeholder="e.g. production server">
  <fieldset>
    <legend>Scopes</legend>
    ${SCOPES.map((s) => html`<label title="${SCOPE_HELP[s]}"><input type="checkbox" name="scopes" value="${s}"${f.scopes.includes(s) ? html` checked` : ''}> <code>${s}</code> <span class="muted">${SCOPE_HELP[s]}</span></label><br>`)}
  </fieldset>
  <fieldset>
    <legend>Connected accounts the key may use</legend>
    <label><input type="radio" name="restriction" value="all"${f.restriction === 'all' ? html` checked` : ''}> All connected accounts</label><br>
    <label><input type="radio" name="restriction" value="list"${f.restriction === 'list' ? html` checked` : ''}> Only these profiles:</label><br>
    ${v.profiles === undefined ? html`<p class="muted">Your connected profiles cannot be listed right now; enter their ids below.</p>` : ''}
    ${(v.profiles ?? []).map((p) => html`<label><input type="checkbox" name="profileIds" value="${p.id}"${f.profileIds.includes(p.id) ? html` checked` : ''}> ${p.platform} @${p.handle} <code>${p.id}</code></label><br>`)}
    <label for="other-profiles">Profile ids (comma separated)</label>
    <input id="other-profiles" name="otherProfileIds" type="text" value="${f.profileIds.filter((id) => !known.has(id)).join(', ')}" placeholder="prf_…, prf_…">
  </fieldset>
  <label for="expires">Expires</label>
  <select id="expires" name="expiresInDays">
    ${EXPIRY_CHOICES.map((c) => html`<option value="${c.value}"${f.expiresInDays === c.value ? html` selected` : ''}>${c.label}</option>`)}
  </select>
  <p><button type="submit">Create key</button></p>
</form>
</section>`;
}

/** Scopes an older key holds only until the sunset: create a key with them to keep that access. */
function legacyScopes(scopes: string[]) {
  return html`<br><span class="muted">${scopes.join(' ')} until ${LEGACY_WEBHOOK_ACCESS.sunset.slice(0, 10)} (through post:read; create a key with these scopes to keep them)</span>`;
}

function keyTable(v: SettingsView) {
  if (!v.keys.length) return html`<section><h2>API keys</h2><p class="muted">No keys yet.</p></section>`;
  return html`<section>
<h2>API keys</h2>
<table>
<thead><tr><th>Name</th><th>Key</th><th>Scopes</th><th>Profiles</th><th>Created</th><th>Expires</th><th>Last used</th><th>Status</th><th></th></tr></thead>
<tbody>
${v.keys.map(
  (k) => html`<tr data-key-id="${k.keyId}">
<td>${k.name}</td><td><code>${k.prefix}</code></td><td>${k.scopes.join(' ')}${k.deprecatedScopes ? legacyScopes(k.deprecatedScopes) : ''}</td>
<td>${k.profileIds === 'all' ? 'all' : k.profileIds.join(', ')}</td>
<td>${when(k.createdAt)}</td><td>${when(k.expiresAt)}</td><td>${k.lastUsedAt ? when(k.lastUsedAt) : 'never'}</td><td class="status">${k.status}</td>
<td>${k.status === 'active' ? html`<form method="post" action="/settings/keys/${k.keyId}/revoke"><input type="hidden" name="_csrf" value="${v.csrf}"><button type="submit" aria-label="Revoke ${k.name}">Revoke</button></form>` : ''}</td>
</tr>`,
)}
</tbody>
</table>
</section>`;
}

/** What the consent page promised: every application allowed in, and a way to take it back. */
function applicationTable(v: SettingsView) {
  const applications = v.applications ?? [];
  if (!applications.length)
    return html`<section><h2>Connected applications</h2><p class="muted">No application has access to your account.</p></section>`;
  return html`<section>
<h2>Connected applications</h2>
<p class="muted">Applications you allowed to use your account, for example AI agents. Revoking one ends its access at once; it then has to ask you again.</p>
<table>
<thead><tr><th>Application</th><th>Scopes</th><th>Allowed</th><th>Last used</th><th></th></tr></thead>
<tbody>
${applications.map(
  (a) => html`<tr data-grant-id="${a.grantId}">
<td>${a.clientName}</td><td>${a.scopes.join(' ')}</td><td>${whenDate(a.grantedAt)}</td><td>${whenDate(a.lastUsedAt)}</td>
<td><form method="post" action="/settings/applications/${a.grantId}/revoke"><input type="hidden" name="_csrf" value="${v.csrf}"><button type="submit" aria-label="Revoke ${a.clientName}">Revoke</button></form></td>
</tr>`,
)}
</tbody>
</table>
</section>`;
}

export function settingsPage(v: SettingsView): string {
  return layout({
    title: 'Settings',
    nonce: v.nonce,
    header: settingsNav('settings', v.email, v.csrf),
    body: html`${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : ''}
${v.created ? createdBanner(v.created) : ''}
<section>
<h1>Settings</h1>
<p>Account <code id="account-id">${v.account.accountId}</code> · ${planLine(v.account)}</p>
<p class="muted">Send a key as <code>Authorization: Bearer &lt;key&gt;</code> on every API request.</p>
</section>
${keyForm(v)}
${keyTable(v)}
${applicationTable(v)}`,
    script: v.created ? COPY_SCRIPT : undefined,
  });
}
