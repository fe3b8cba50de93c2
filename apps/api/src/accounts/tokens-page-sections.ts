import type { FastifyRequest } from 'fastify';
import type { UserRow } from '#db/accounts/accounts-repository';
import type { TokenRow } from '#db/accounts/tokens-repository';
import { RECRUITER_SCOPES, SCOPES, SCOPE_DESCRIPTIONS, SCOPE_PRESETS, type Scope } from '#lib/scopes';
import { str, type FormBody } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { confirmAction, errorSummary, fmtDate, input, postForm, select, type FieldErrors } from '../web/layout';
import { OAUTH_CONSENT_TEXT, TOKEN_LABELS } from '../web/messages';
import { cardTable } from '../web/tables';

const EXPIRY_CHOICES: Array<[string, string]> = [
  ['30', '30 days'],
  ['7', '7 days'],
  ['90', '90 days'],
  ['365', '1 year'],
  ['', 'No expiry'],
];

/** Scopes grouped by resource: `profile:read`, `profile:write` → "profile". */
function scopeGroups(): Array<[string, Scope[]]> {
  const groups = new Map<string, Scope[]>();
  for (const s of SCOPES) {
    const g = s.split(':')[0];
    groups.set(g, [...(groups.get(g) ?? []), s]);
  }
  return [...groups];
}

/** A token as the page shows it: active, expired or revoked. */
export function tokenState(t: TokenRow): string {
  if (t.revoked_at) return 'revoked';
  if (t.expires_at && t.expires_at.getTime() <= Date.now()) return 'expired';
  return 'active';
}

/** The new token, shown once (on the GET after the POST that minted it). */
export const mintedPanel = (minted: { token: string; row: TokenRow }): SafeHtml =>
  html`<section class="panel panel-success" aria-labelledby="minted-h">
  <h2 id="minted-h" tabindex="-1" data-autofocus>Token “${minted.row.name}” created</h2>
  <p><strong>Copy it now: it is shown only once.</strong> We store only its hash.</p>
  <div class="copy-row">
    <label for="new-token" class="visually-hidden">New token</label>
    <input id="new-token" class="mono" type="text" readonly value="${minted.token}" data-select-on-focus>
    <button type="button" class="btn" data-copy="#new-token">Copy</button>
    <span class="copy-status" role="status" aria-live="polite"></span>
  </div>
</section>`;

/** The form that mints a token: name, scopes (from a preset or ticked one by one), expiry. */
export function mintSection(
  request: FastifyRequest,
  o: {
    values?: FormBody;
    errors: FieldErrors | null;
    preset: (typeof SCOPE_PRESETS)[number] | undefined;
    chosen: ReadonlySet<string>;
    role: UserRow['role'];
  },
): SafeHtml {
  const { values, errors, preset, chosen, role } = o;
  return html`<section aria-labelledby="mint-h" class="panel">
<h2 id="mint-h">Create a token</h2>
${errorSummary(errors, { name: 'Name', scopes: 'Scopes', expires_at: 'Expiry' })}
${postForm(
  request,
  '/account/api-tokens',
  html`${input({
    name: 'name',
    label: TOKEN_LABELS.name,
    value: values ? str(values, 'name') : '',
    errors,
    required: true,
    hint: 'What uses it, e.g. “my job agent”. Shown as the agent identity when X-Agent-Identity is absent.',
  })}
<fieldset class="field${errors?.scopes ? ' has-error' : ''}" id="f-scopes" tabindex="-1"${errors?.scopes ? html` aria-describedby="e-scopes"` : ''}>
  <legend>Scopes</legend>
  ${errors?.scopes ? html`<p class="error" id="e-scopes"><span class="visually-hidden">Error:</span> ${errors.scopes}</p>` : ''}
  <p class="hint" id="presets-hint">Start from a preset, then review the boxes:</p>
  <ul class="preset-list" aria-describedby="presets-hint">
  ${SCOPE_PRESETS.map((p) => html`<li><a href="/account/api-tokens?preset=${p.id}#f-scopes"${preset?.id === p.id ? html` aria-current="true"` : ''}>${p.label}</a> <span class="hint">${p.description}</span></li>`)}
  </ul>
  <p class="hint">Scopes marked <span class="badge badge-recruiter">recruiter</span> act on your team's events, jobs and candidates${role === 'seeker' ? ' and are of no use to a job seeker account' : ''}.</p>
  <div class="scope-grid">
  ${scopeGroups().map(
    ([group, scopes]) => html`<fieldset class="scope-group"><legend>${group}</legend>
    ${scopes.map(
      (
        s,
      ) => html`<div class="choice"><input type="checkbox" name="scopes" value="${s}" id="scope-${s.replace(':', '-')}" aria-describedby="scope-${s.replace(':', '-')}-desc"${chosen.has(s) ? html` checked` : ''}>
      <div><label for="scope-${s.replace(':', '-')}">${s}${RECRUITER_SCOPES.has(s) ? html` <span class="badge badge-recruiter">recruiter</span>` : ''}</label>
      <p class="hint scope-desc" id="scope-${s.replace(':', '-')}-desc">${SCOPE_DESCRIPTIONS[s]}</p></div></div>`,
    )}</fieldset>`,
  )}
  </div>
</fieldset>
${select({
  name: 'expires_in_days',
  label: TOKEN_LABELS.expires_in_days,
  value: values ? str(values, 'expires_in_days') : '30',
  errors: errors?.expires_at ? { expires_in_days: errors.expires_at } : null,
  options: EXPIRY_CHOICES,
})}
<button type="submit" class="btn btn-primary">Create token</button>`,
  { label: 'Create a token' },
)}
</section>`;
}

/** The person's personal tokens, each revocable while active. */
export const tokenListSection = (request: FastifyRequest, rows: TokenRow[]): SafeHtml =>
  html`<section aria-labelledby="list-h">
<h2 id="list-h">Your tokens</h2>
${
  rows.length
    ? cardTable(html`<div class="table-wrap"><table>
<caption class="visually-hidden">Your API tokens</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows.map(
        (t) => html`<tr data-token-id="${t.id}">
<th scope="row">${t.name}</th>
<td class="mono">${t.display_prefix}</td>
<td>${t.scopes.join(', ')}</td>
<td>${fmtDate(t.created_at)}</td>
<td class="last-used">${t.last_used_at ? fmtDate(t.last_used_at) : 'never'}</td>
<td>${t.expires_at ? fmtDate(t.expires_at) : 'never'}</td>
<td><span class="state state-${tokenState(t)}">${tokenState(t)}</span></td>
<td>${
          tokenState(t) === 'active'
            ? confirmAction(request, `/account/api-tokens/${t.id}/revoke`, 'Revoke', {
                small: true,
                ariaLabel: `Revoke token ${t.name}`,
                consequence: `Anything using “${t.name}” stops working at once.`,
                confirmLabel: `Yes, revoke ${t.name}`,
              })
            : ''
        }</td>
</tr>`,
      )}</tbody></table></div>`)
    : html`<p>No tokens yet.</p>`
}
</section>`;

/** Apps connected through OAuth (their grants), each revocable. */
export const connectedAppsSection = (request: FastifyRequest, liveApps: TokenRow[]): SafeHtml =>
  html`<section aria-labelledby="apps-h">
<h2 id="apps-h">${OAUTH_CONSENT_TEXT.connectedHeading}</h2>
<p>${OAUTH_CONSENT_TEXT.connectedLead}</p>
${
  liveApps.length
    ? cardTable(html`<div class="table-wrap"><table>
<caption class="visually-hidden">${OAUTH_CONSENT_TEXT.connectedHeading}</caption>
<thead><tr><th scope="col">App</th><th scope="col">Address</th><th scope="col">For</th><th scope="col">Scopes</th><th scope="col">Granted</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${liveApps.map(
        (t) => html`<tr data-app-id="${t.id}">
<th scope="row">${t.oauth_client_name ?? t.name}</th>
<td class="mono">${t.oauth_client_origin ?? ''}</td>
<td class="mono">${t.oauth_resource ?? ''}</td>
<td>${t.scopes.join(', ')}</td>
<td>${fmtDate(t.created_at)}</td>
<td class="last-used">${t.last_used_at ? fmtDate(t.last_used_at) : 'never'}</td>
<td>${confirmAction(request, `/account/api-tokens/${t.id}/revoke`, 'Revoke', {
          small: true,
          ariaLabel: `Revoke app ${t.oauth_client_name ?? t.name}`,
          consequence: `“${t.oauth_client_name ?? t.name}” loses access at once and cannot refresh it.`,
          confirmLabel: `Yes, revoke ${t.oauth_client_name ?? t.name}`,
        })}</td>
</tr>`,
      )}</tbody></table></div>`)
    : html`<p>${OAUTH_CONSENT_TEXT.connectedNone}</p>`
}
</section>`;
