import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, raw, type SafeHtml } from './html';
import { csrfToken } from './core';
import { AppError, ValidationError } from '#lib/errors';
import { SHIPPED_SKILL_VOCABULARY } from '#domain/matchmaking/skills';
import { codeMessage, fieldName, issueMessage, QUEUE_EXIT_TEXT, type IssueLike } from './messages';

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Extra scripts under /static (no inline scripts: the CSP forbids them). */
  scripts?: string[];
  status?: number;
  /** Narrow single-column pages (forms). */
  narrow?: boolean;
  /** schema.org JSON-LD (already escaped for a script block: events/structured-data.ts `jsonLdText`). */
  jsonLd?: string;
}

export type FieldErrors = Record<string, string>;

/**
 * Field errors from a ValidationError (first message per field), each a sentence from the message
 * catalogue (web/messages.ts): the field named in words, never the validator's own text.
 */
export function fieldErrors(err: unknown): FieldErrors | null {
  if (!(err instanceof AppError) || err.code !== 'VALIDATION') return null;
  const issues = (err.details?.issues ?? []) as Array<{ path: string; message: string }>;
  const source = err instanceof ValidationError ? err.sourceIssues : undefined;
  const out: FieldErrors = {};
  issues.forEach((i, n) => {
    const key = i.path.replace(/^body\./, '').split('.')[0] || 'form';
    out[key] ??= issueMessage({ ...(source?.[n] ?? {}), path: i.path, message: i.message } as IssueLike);
  });
  if (!Object.keys(out).length) out.form = codeMessage(err.code, err.message);
  return out;
}

export function csrfField(request: FastifyRequest): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${csrfToken(request.server.appSecret, request)}">`;
}

/** A POST form with its CSRF token; `novalidate` so the server's messages (same zod schemas as the API) are the ones shown. */
export function postForm(
  request: FastifyRequest,
  action: string,
  inner: SafeHtml,
  attrs: { cls?: string; label?: string } = {},
): SafeHtml {
  return html`<form method="post" action="${action}" novalidate${attrs.cls ? html` class="${attrs.cls}"` : ''}${attrs.label ? html` aria-label="${attrs.label}"` : ''}>${csrfField(request)}${inner}</form>`;
}

/** A one-button POST form (revoke, pause, accept…). */
export function actionButton(
  request: FastifyRequest,
  action: string,
  label: string,
  opts: { cls?: string; name?: string; value?: string; ariaLabel?: string } = {},
): SafeHtml {
  return postForm(
    request,
    action,
    html`${opts.name ? html`<input type="hidden" name="${opts.name}" value="${opts.value ?? ''}">` : ''}<button type="submit" class="${opts.cls ?? 'btn'}"${opts.ariaLabel ? html` aria-label="${opts.ariaLabel}"` : ''}>${label}</button>`,
    { cls: 'inline' },
  );
}

/**
 * A destructive action behind a confirmation, with no script: the first button (a disclosure)
 * opens a short explanation and the real POST button. Keyboard: Enter/Space on either.
 */
export function confirmAction(
  request: FastifyRequest,
  action: string,
  label: string,
  o: { consequence: string; confirmLabel: string; name?: string; value?: string; ariaLabel?: string; small?: boolean },
): SafeHtml {
  return html`<details class="confirm">
<summary class="btn btn-danger${o.small ? ' btn-small' : ''}"${o.ariaLabel ? html` aria-label="${o.ariaLabel}"` : ''}>${label}</summary>
<div class="confirm-box">
<p>${o.consequence}</p>
${actionButton(request, action, o.confirmLabel, { cls: 'btn btn-danger', name: o.name, value: o.value })}
</div>
</details>`;
}

/**
 * Error summary at the top of a form; links move focus to the field (GOV.UK pattern). The messages
 * come from the catalogue and name their field; `labels` is the form's own wording, kept for the
 * few messages that do not (a service's free text).
 */
export function errorSummary(errors: FieldErrors | null, labels: Record<string, string> = {}): SafeHtml {
  if (!errors || !Object.keys(errors).length) return html``;
  const names = (k: string, m: string) =>
    [labels[k], fieldName(k)]
      .filter((x): x is string => !!x)
      .some((l) => m.toLowerCase().includes(l.toLowerCase().replace(/ \(.*\)$/, '')));
  return html`<div class="error-summary" role="alert" tabindex="-1" data-autofocus>
  <h2>There is a problem</h2>
  <ul>${Object.entries(errors).map(([k, m]) => (k === 'form' ? html`<li>${m}</li>` : html`<li><a href="#f-${k}">${names(k, m) ? m : `${labels[k] ?? fieldName(k)}: ${m}`}</a></li>`))}</ul>
</div>`;
}

interface FieldOptions {
  name: string;
  label: string;
  value?: string | number | null;
  type?: string;
  errors?: FieldErrors | null;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  attrs?: SafeHtml;
}

function describedBy(o: { name: string; hint?: string; errors?: FieldErrors | null }): string {
  return [o.hint ? `h-${o.name}` : '', o.errors?.[o.name] ? `e-${o.name}` : ''].filter(Boolean).join(' ');
}

function fieldChrome(o: FieldOptions, control: SafeHtml): SafeHtml {
  const err = o.errors?.[o.name];
  return html`<div class="field${err ? ' has-error' : ''}">
  <label for="f-${o.name}">${o.label}${o.required ? html` <span class="req" aria-hidden="true">*</span>` : ''}</label>
  ${o.hint ? html`<p class="hint" id="h-${o.name}">${o.hint}</p>` : ''}
  ${err ? html`<p class="error" id="e-${o.name}"><span class="visually-hidden">Error:</span> ${err}</p>` : ''}
  ${control}
</div>`;
}

export function input(o: FieldOptions): SafeHtml {
  const db = describedBy(o);
  return fieldChrome(
    o,
    html`<input id="f-${o.name}" name="${o.name}" type="${o.type ?? 'text'}" value="${o.value ?? ''}"${o.required ? html` required` : ''}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${db ? html` aria-describedby="${db}"` : ''}${o.errors?.[o.name] ? html` aria-invalid="true"` : ''}${o.attrs ?? ''}>`,
  );
}

/** The id of the skill vocabulary's `<datalist>` (`skillSuggestions`). */
export const SKILL_SUGGESTIONS_ID = 'skill-suggestions';
/** For a comma-separated skills input: suggest from the vocabulary (app.js narrows to the skill being typed). */
export const skillInputAttrs = html` list="${SKILL_SUGGESTIONS_ID}" data-skill-input autocomplete="off"`;
let skillList: SafeHtml | undefined;
/**
 * The skill vocabulary as a `<datalist>`, once per page with skill inputs: each label, its aliases
 * in `data-aliases` so app.js can suggest "Kubernetes" for "k8s". Without JavaScript the browser
 * suggests the labels for the first skill typed.
 */
export function skillSuggestions(): SafeHtml {
  skillList ??= html`<datalist id="${SKILL_SUGGESTIONS_ID}">${SHIPPED_SKILL_VOCABULARY.skills.map(
    (s) => html`<option value="${s.label}" data-aliases="${[s.id, ...s.aliases].join('|')}"></option>`,
  )}</datalist>`;
  return skillList;
}

export function textarea(o: FieldOptions & { rows?: number }): SafeHtml {
  const db = describedBy(o);
  return fieldChrome(
    o,
    html`<textarea id="f-${o.name}" name="${o.name}" rows="${o.rows ?? 4}"${o.required ? html` required` : ''}${db ? html` aria-describedby="${db}"` : ''}${o.errors?.[o.name] ? html` aria-invalid="true"` : ''}>${o.value ?? ''}</textarea>`,
  );
}

export function select(o: FieldOptions & { options: Array<[string, string]> }): SafeHtml {
  const db = describedBy(o);
  return fieldChrome(
    o,
    html`<select id="f-${o.name}" name="${o.name}"${db ? html` aria-describedby="${db}"` : ''}${o.errors?.[o.name] ? html` aria-invalid="true"` : ''}>${o.options.map(
      ([v, l]) => html`<option value="${v}"${String(o.value ?? '') === v ? html` selected` : ''}>${l}</option>`,
    )}</select>`,
  );
}

/** A group of radio buttons in a fieldset with a legend. */
export function radios(o: FieldOptions & { options: Array<[string, string, string?]>; inline?: boolean }): SafeHtml {
  const err = o.errors?.[o.name];
  return html`<fieldset class="field${err ? ' has-error' : ''}${o.inline ? ' choices-inline' : ''}" id="f-${o.name}" tabindex="-1"${err ? html` aria-describedby="e-${o.name}"` : ''}>
  <legend>${o.label}</legend>
  ${err ? html`<p class="error" id="e-${o.name}"><span class="visually-hidden">Error:</span> ${err}</p>` : ''}
  ${o.options.map(
    (
      [v, l, hint],
      i,
    ) => html`<div class="choice"><input type="radio" id="f-${o.name}-${i}" name="${o.name}" value="${v}"${String(o.value ?? '') === v ? html` checked` : ''}${o.required ? html` required` : ''}>
    <label for="f-${o.name}-${i}">${l}${hint ? html` <span class="hint">${hint}</span>` : ''}</label></div>`,
  )}
</fieldset>`;
}

function nav(request: FastifyRequest): SafeHtml {
  const s = request.webSession;
  if (!s) {
    return html`<nav aria-label="Main"><ul><li><a href="/">Live events</a></li><li><a href="/login">Sign in</a></li><li><a href="/signup" class="btn btn-small">Sign up</a></li></ul></nav>`;
  }
  const links: Array<[string, string]> =
    s.user.role === 'recruiter'
      ? [
          ['/recruiter', 'Console'],
          ['/matches', 'Matches'],
        ]
      : [
          ['/', 'Live events'],
          ['/queue', 'Queue'],
          ['/matches', 'Matches'],
        ];
  links.push(['/account/profile', 'Profile']);
  // Tokens and webhooks are for people who connect an agent or a server: one menu, not the main line.
  const developer: Array<[string, string]> = [
    ['/account/api-tokens', 'API tokens'],
    ['/account/webhooks', 'Webhooks'],
  ];
  const here = request.url.split('?')[0];
  const inDev = developer.some(([href]) => here.startsWith(href));
  return html`<nav aria-label="Main"><ul>${links.map(([href, label]) => html`<li><a href="${href}"${here === href ? html` aria-current="page"` : ''}>${label}</a></li>`)}
  <li><details class="nav-menu"${inDev ? html` open` : ''}><summary>Developers</summary><ul>${developer.map(([href, label]) => html`<li><a href="${href}"${here === href ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul></details></li>
  <li>${postForm(request, '/logout', html`<button type="submit" class="linklike">Sign out <span class="visually-hidden">${s.user.email}</span></button>`, { cls: 'inline' })}</li></ul></nav>`;
}

export function renderPage(request: FastifyRequest, o: PageOptions): string {
  const s = request.webSession;
  return `<!doctype html>${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Job Fair</title>
<meta name="csrf-token" content="${csrfToken(request.server.appSecret, request)}">
<link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<script src="/static/app.js" defer></script>
${(o.scripts ?? []).map((src) => html`<script src="/static/${src}" defer></script>`)}
${o.jsonLd ? html`<script type="application/ld+json">${raw(o.jsonLd)}</script>` : ''}
</head>
<body${s ? html` data-live-url="/live" data-base-title="${o.title} · Job Fair"` : ''}>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="wrap header-row">
    <a class="brand" href="/">Job Fair</a>
    ${s ? html`<span class="whoami">${s.user.display_name} <span class="role-badge">${s.user.role}</span></span>` : ''}
    ${nav(request)}
  </div>
</header>
<p id="live-announcer" class="visually-hidden" role="status" aria-live="polite"></p>
<main id="main" class="wrap${o.narrow ? ' narrow' : ''}" tabindex="-1">
${o.body}
</main>
<footer class="site-footer"><div class="wrap">Job Fair · <a href="/docs/api/">API reference</a> · <a href="/docs/agents.md">For agents</a> · <a href="/api/v1/openapi.json">OpenAPI</a>${s ? html` <button type="button" class="linklike" id="enable-notifications" hidden>Turn on browser notifications</button>` : ''}</div></footer>
</body>
</html>`.value
  }`;
}

export function sendPage(request: FastifyRequest, reply: FastifyReply, o: PageOptions): FastifyReply {
  return reply
    .code(o.status ?? 200)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(renderPage(request, o));
}

const NOTICES: Record<string, string> = {
  'token-revoked': 'The token was revoked; it no longer works.',
  'webhook-paused': 'The webhook subscription was paused.',
  'webhook-resumed': 'The webhook subscription was re-enabled.',
  'webhook-tested': 'A test event was sent; its delivery appears in the log below.',
  'webhook-deleted': 'The webhook subscription was deleted.',
  'signed-out': 'You are signed out.',
  'event-saved': 'The event was saved.',
  'job-saved': 'The job was saved.',
  'note-saved': 'Your note was saved.',
  'availability-saved': 'Your availability was saved.',
  'floor-saved': 'The quality floor was saved.',
  'joined-team': 'You joined the team.',
  'interview-ended': 'The interview has ended.',
  'report-saved': 'The report card was saved.',
  'profile-saved': 'Your profile was saved.',
  'declined-left-queue': QUEUE_EXIT_TEXT.declinedAndLeft,
  'left-queue': QUEUE_EXIT_TEXT.leftQueue,
  'left-queue-declined': QUEUE_EXIT_TEXT.leftQueueDeclined,
};

/** Fixed messages after a redirect (`?done=<code>`): never echoes the query string itself. */
export function notice(request: FastifyRequest): SafeHtml {
  const code = (request.query as { done?: string } | undefined)?.done;
  const msg = code ? NOTICES[code] : undefined;
  return msg ? html`<p class="notice" role="status">${msg}</p>` : html``;
}

/** A time as plain text in UTC ("2026-11-22 20:35 UTC"): for e-mails, downloads and titles. */
export const fmtDateText = (d: Date | string | null | undefined): string => {
  if (!d) return '—';
  const date = typeof d === 'string' ? new Date(d) : d;
  return date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
};

/**
 * A time on a page: `<time datetime="ISO" title="… UTC">… UTC</time>`. The server's text is UTC
 * (clear without script); static/app.js rewrites it in the viewer's own zone, and the title keeps
 * the UTC time on hover (decision 0170).
 */
export const fmtDate = (d: Date | string | null | undefined): SafeHtml => {
  if (!d) return html`—`;
  const date = typeof d === 'string' ? new Date(d) : d;
  if (Number.isNaN(date.getTime())) return html`—`;
  const utc = fmtDateText(date);
  return html`<time datetime="${date.toISOString()}" title="${utc}" data-local-time>${utc}</time>`;
};
