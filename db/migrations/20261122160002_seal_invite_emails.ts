import type { Knex } from 'knex';
import { appSecret, loadConfig } from '#lib/config';
import { openOutboxBody, sealOutboxBody, SEALED_BODY_PREFIX } from '#lib/sealed';

/**
 * Invite e-mails in `email_outbox` carried the invite link (a credential) in plain text. New rows are
 * sealed by the API (decision 0163); this seals the rows already there, sent or not, with the
 * server master key of the environment that runs the migration (APP_SECRET, or the development key
 * under DATA_DIR) — the key the worker opens them with. The key is read only when there is a row to
 * seal, so a fresh database needs none.
 */
const plainInviteRows = (knex: Knex) =>
  knex('email_outbox').where({ kind: 'team_invite' }).andWhereNot('body', 'like', `${SEALED_BODY_PREFIX}%`);

export async function up(knex: Knex): Promise<void> {
  const rows: Array<{ id: string; body: string }> = await plainInviteRows(knex).select('id', 'body');
  if (rows.length === 0) return;
  const key = appSecret(loadConfig());
  for (const r of rows)
    await knex('email_outbox')
      .where({ id: r.id })
      .update({ body: sealOutboxBody(r.body, key) });
}

export async function down(knex: Knex): Promise<void> {
  const rows: Array<{ id: string; body: string }> = await knex('email_outbox')
    .where({ kind: 'team_invite' })
    .andWhere('body', 'like', `${SEALED_BODY_PREFIX}%`)
    .select('id', 'body');
  if (rows.length === 0) return;
  const key = appSecret(loadConfig());
  for (const r of rows)
    await knex('email_outbox')
      .where({ id: r.id })
      .update({ body: openOutboxBody(r.body, key) });
}
