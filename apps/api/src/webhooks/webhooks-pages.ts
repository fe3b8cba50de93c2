import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { webhookOwnerOf, type WebhookOwner } from './webhooks-service';
import { parseOrThrow } from '../web/forms';
import { createWebhookBodySchema, webhookIdParam } from './webhooks-schemas';
import { WEBHOOK_EVENT_DOCS, WEBHOOK_EVENT_TYPES, type FirstOutcomeUpdateResult } from '#workflows/webhooks/contract';
import { AppError, NotFoundError } from '#lib/errors';
import { currentUser, formBody, list, setFlash, str, takeFlash, type FormBody } from '../web/core';
import { html } from '../web/html';
import { cardTable } from '../web/tables';
import {
  actionButton,
  confirmAction,
  errorSummary,
  fieldErrors,
  fmtDate,
  input,
  notice,
  postForm,
  sendPage,
  type FieldErrors,
} from '../web/layout';
import { errorMessage, WEBHOOK_LABELS } from '../web/messages';

/** Types a subscription can choose (webhook.test is always delivered by "Send test"). */
const CHOOSABLE = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test');

/** `/account/webhooks`: the same webhooks service as the REST routes (create, list, pause/resume, test, log). */
const webhooksPages: FastifyPluginAsync = async (app) => {
  const webhooks = app.services.webhooks;

  const ownerOf = (request: FastifyRequest): WebhookOwner => {
    const { user, membership } = currentUser(request);
    return webhookOwnerOf({ userId: user.id, role: user.role, teamId: membership?.team_id ?? null });
  };
  const idOf = (request: FastifyRequest<{ Params: { id: string } }>) => {
    if (!webhookIdParam.safeParse({ id: request.params.id }).success)
      throw new NotFoundError('webhook', request.params.id);
    return request.params.id;
  };

  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    o: { values?: FormBody; errors?: FieldErrors | null; created?: { id: string; secret: string } } = {},
  ) => {
    const owner = ownerOf(request);
    const page = await webhooks.list(owner, { limit: 100 });
    const errors = o.errors ?? null;
    const chosen = new Set(o.values ? list(o.values, 'events') : ['match.matched']);
    return sendPage(request, reply, {
      title: 'Webhooks',
      status: errors ? 400 : 200,
      body: html`<h1>Webhooks</h1>
<p class="lead">Signed HTTPS POSTs to your server when something happens${owner.kind === 'team' ? ' to your team' : ''}. Verify <code>Svc-Signature</code> (HMAC-SHA256 of <code>&lt;t&gt;.&lt;body&gt;</code> with the secret) on every request.</p>
${notice(request)}
${
  o.created
    ? html`<section class="panel panel-success" aria-labelledby="created-h">
<h2 id="created-h" tabindex="-1" data-autofocus>Subscription ${o.created.id} created</h2>
<p><strong>Copy the signing secret now: it is shown only once.</strong></p>
<div class="copy-row"><label for="new-secret" class="visually-hidden">Signing secret</label>
<input id="new-secret" class="mono" type="text" readonly value="${o.created.secret}" data-select-on-focus>
<button type="button" class="btn" data-copy="#new-secret">Copy</button><span class="copy-status" role="status" aria-live="polite"></span></div>
<p><a href="/account/webhooks/${o.created.id}">Send a test event and see the delivery log</a></p>
</section>`
    : ''
}
<section class="panel" aria-labelledby="create-h">
<h2 id="create-h">Add a subscription</h2>
${errorSummary(errors, WEBHOOK_LABELS)}
${postForm(
  request,
  '/account/webhooks',
  html`${input({
    name: 'target_url',
    label: WEBHOOK_LABELS.target_url,
    type: 'url',
    value: o.values ? str(o.values, 'target_url') : '',
    errors,
    required: true,
    hint: 'https:// only; private and loopback addresses are refused.',
  })}
<fieldset class="field${errors?.events ? ' has-error' : ''}" id="f-events" tabindex="-1"${errors?.events ? html` aria-describedby="e-events"` : ''}>
<legend>${WEBHOOK_LABELS.events}</legend>
${errors?.events ? html`<p class="error" id="e-events"><span class="visually-hidden">Error:</span> ${errors.events}</p>` : ''}
${CHOOSABLE.map(
  (
    t,
  ) => html`<div class="choice"><input type="checkbox" name="events" value="${t}" id="ev-${t.replace('.', '-')}"${chosen.has(t) ? html` checked` : ''}>
<label for="ev-${t.replace('.', '-')}"><span class="mono">${t}</span> <span class="hint">${WEBHOOK_EVENT_DOCS[t].when}</span></label></div>`,
)}
</fieldset>
${input({
  name: 'description',
  label: WEBHOOK_LABELS.description,
  value: o.values ? str(o.values, 'description') : '',
  errors,
})}
<button type="submit" class="btn btn-primary">Add subscription</button>`,
  { label: 'Add a webhook subscription' },
)}
</section>
<section aria-labelledby="subs-h">
<h2 id="subs-h">Subscriptions</h2>
${
  page.data.length
    ? cardTable(html`<div class="table-wrap"><table><caption class="visually-hidden">Webhook subscriptions</caption>
<thead><tr><th scope="col">Target</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Failures in a row</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${page.data.map(
        (
          w,
        ) => html`<tr data-webhook-id="${w.id}"><th scope="row"><a href="/account/webhooks/${w.id}">${w.target_url}</a>${w.description ? html`<br><span class="hint">${w.description}</span>` : ''}</th>
<td>${w.events.join(', ')}</td><td><span class="state state-${w.status}">${w.status}</span></td><td>${w.consecutive_failures}</td><td>${fmtDate(w.created_at)}</td>
<td><a href="/account/webhooks/${w.id}">Log and test</a></td></tr>`,
      )}</tbody></table></div>`)
    : html`<p>No subscriptions yet.</p>`
}
</section>`,
    });
  };

  app.get('/account/webhooks', async (request, reply) =>
    listPage(request, reply, {
      created: takeFlash<{ id: string; secret: string }>(request, reply, 'webhook-created') ?? undefined,
    }),
  );

  app.post('/account/webhooks', async (request, reply) => {
    const { user } = currentUser(request);
    const owner = ownerOf(request);
    const b = formBody(request);
    try {
      const description = str(b, 'description').trim();
      const body = parseOrThrow(createWebhookBodySchema, {
        target_url: str(b, 'target_url').trim(),
        events: list(b, 'events'),
        ...(description ? { description } : {}),
      });
      const { row, secret } = await webhooks.create(owner, user.id, body);
      setFlash(request, reply, 'webhook-created', { id: row.id, secret });
      return reply.redirect('/account/webhooks', 303);
    } catch (err) {
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return listPage(request, reply, { values: b, errors });
    }
  });

  const detailPage = async (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    o: { test?: { eventId: string; outcome: FirstOutcomeUpdateResult }; problem?: string; status?: number } = {},
  ) => {
    const owner = ownerOf(request);
    const id = idOf(request);
    const [w, log] = await Promise.all([webhooks.get(owner, id), webhooks.listDeliveries(owner, id)]);
    const a = o.test?.outcome.attempt;
    return sendPage(request, reply, {
      title: `Webhook ${w.id}`,
      status: o.status ?? 200,
      body: html`<p class="hint"><a href="/account/webhooks">All webhooks</a></p>
<h1>Webhook to <span class="mono">${w.target_url}</span></h1>
${notice(request)}
${o.problem ? html`<p class="error" role="alert">${o.problem}</p>` : ''}
<dl class="kv"><dt>Id</dt><dd class="mono">${w.id}</dd><dt>Status</dt><dd><span class="state state-${w.status}" data-webhook-status="${w.status}">${w.status}</span>${w.paused_at ? html` since ${fmtDate(w.paused_at)}` : ''}</dd>
<dt>Events</dt><dd>${w.events.join(', ')}</dd><dt>Failures in a row</dt><dd>${w.consecutive_failures}</dd>${w.description ? html`<dt>Description</dt><dd>${w.description}</dd>` : ''}</dl>
${
  o.test
    ? html`<div class="panel ${o.test.outcome.state === 'delivered' ? 'panel-success' : ''}" role="status" id="test-result">
<p>Test event <span class="mono">${o.test.eventId}</span>: <strong class="state state-${o.test.outcome.state}">${o.test.outcome.state}</strong>${a ? html` · HTTP ${a.httpStatus ?? '—'}${a.errorKind ? ` (${a.errorKind})` : ''} in ${a.latencyMs ?? '—'} ms` : ''}</p></div>`
    : ''
}
<div class="actions">
${actionButton(request, `/account/webhooks/${w.id}/test`, 'Send test event', { cls: 'btn btn-primary' })}
${
  w.status === 'active'
    ? actionButton(request, `/account/webhooks/${w.id}/status`, 'Pause', { name: 'status', value: 'disabled' })
    : actionButton(request, `/account/webhooks/${w.id}/status`, 'Re-enable', {
        name: 'status',
        value: 'active',
        cls: 'btn btn-primary',
      })
}
${confirmAction(request, `/account/webhooks/${w.id}/delete`, 'Delete', {
  consequence:
    'Deleting the subscription stops every delivery to this URL, including retries in flight. It cannot be undone.',
  confirmLabel: 'Yes, delete the subscription',
})}
</div>
<section aria-labelledby="log-h">
<h2 id="log-h">Delivery log <span class="hint">(50 most recent attempts)</span></h2>
${
  log.length
    ? cardTable(html`<div class="table-wrap"><table id="delivery-log"><caption class="visually-hidden">Delivery attempts, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">HTTP</th><th scope="col">Latency</th><th scope="col">Delivery state</th><th scope="col">Response</th></tr></thead>
<tbody>${log.map(
        (
          d,
        ) => html`<tr><td>${fmtDate(d.attempted_at)}</td><td><span class="mono">${d.event_type}</span><br><span class="hint mono">${d.event_id}</span></td><td>${d.attempt ?? '—'}${d.run > 1 ? ` (replay ${d.run - 1})` : ''}</td>
<td>${d.outcome}${d.error_kind ? html`<br><span class="hint">${d.error_kind}</span>` : ''}</td><td>${d.http_status ?? '—'}</td><td>${d.latency_ms === null ? '—' : `${d.latency_ms} ms`}</td>
<td><span class="state state-${d.state}">${d.state}</span></td><td class="mono">${d.response_snippet ?? ''}</td></tr>`,
      )}</tbody></table></div>`)
    : html`<p>No deliveries yet. Send a test event.</p>`
}
</section>`,
    });
  };

  app.get<{ Params: { id: string } }>('/account/webhooks/:id', async (request, reply) => {
    const test = takeFlash<{ eventId: string; outcome: FirstOutcomeUpdateResult; webhookId: string }>(
      request,
      reply,
      'webhook-tested',
    );
    return detailPage(request, reply, test && test.webhookId === request.params.id ? { test } : {});
  });

  /** The same use-case as POST /api/v1/webhooks/{id}/test: a real delivery; the page shows the first attempt. */
  app.post<{ Params: { id: string } }>('/account/webhooks/:id/test', async (request, reply) => {
    const owner = ownerOf(request);
    try {
      const { eventId, outcome } = await webhooks.sendTest(owner, idOf(request));
      // Post/redirect/get: a reload of the result page does not send another test event.
      setFlash(request, reply, 'webhook-tested', { eventId, outcome, webhookId: idOf(request) });
      return reply.redirect(`/account/webhooks/${idOf(request)}`, 303);
    } catch (err) {
      if (err instanceof AppError && err.status === 409)
        return detailPage(request, reply, { problem: errorMessage(err), status: 409 });
      throw err;
    }
  });

  /** Pause (`disabled`) and re-enable (`active`, resets the failure counter) through the subscription actor. */
  app.post<{ Params: { id: string } }>('/account/webhooks/:id/status', async (request, reply) => {
    const owner = ownerOf(request);
    const id = idOf(request);
    const status = str(formBody(request), 'status') === 'active' ? 'active' : 'disabled';
    await webhooks.update(owner, id, { status });
    return reply.redirect(
      `/account/webhooks/${id}?done=${status === 'active' ? 'webhook-resumed' : 'webhook-paused'}`,
      303,
    );
  });

  app.post<{ Params: { id: string } }>('/account/webhooks/:id/delete', async (request, reply) => {
    const owner = ownerOf(request);
    await webhooks.remove(owner, idOf(request));
    return reply.redirect('/account/webhooks?done=webhook-deleted', 303);
  });
};

export default webhooksPages;
