import nodemailer, { type Transporter } from 'nodemailer';
import { openOutboxBody } from '#lib/sealed';
import { Context } from '@temporalio/activity';
import type { Config } from '#lib/config';
import type { OutboxRepository, OutboxStatus } from '#db/notifications/outbox-repository';

export interface SendOutboxEmailInput {
  outboxId: string;
  /** The caller's retry policy maximumAttempts: the last attempt marks the row failed instead of throwing. */
  maxAttempts: number;
}
export interface SendOutboxEmailResult {
  status: OutboxStatus | 'missing';
}
export interface SendPendingEmailsInput {
  limit: number;
}
export interface SendPendingEmailsResult {
  sent: number;
  failed: number;
}

export interface Mailer {
  send(message: { from: string; to: string; subject: string; text: string }): Promise<void>;
  close(): void;
}

/** nodemailer over SMTP_URL (smtp://host:port, smtps://…); null when SMTP_URL is unset. */
export function createSmtpMailer(config: Pick<Config, 'SMTP_URL'>): Mailer | null {
  if (!config.SMTP_URL) return null;
  let transport: Transporter | null = null;
  return {
    async send(message) {
      transport ??= nodemailer.createTransport(config.SMTP_URL!);
      await transport.sendMail(message);
    },
    close() {
      transport?.close();
      transport = null;
    },
  };
}

/**
 * The outbox sender: delivers `email_outbox` rows through SMTP when SMTP_URL is set and marks them
 * sent, or failed after the last attempt (earlier failures throw so Temporal retries them). With no
 * SMTP_URL rows stay pending and are written to the log (development).
 */
export function createEmailActivities(deps: {
  outbox: OutboxRepository;
  mailer: Mailer | null;
  config: Pick<Config, 'MAIL_FROM' | 'NODE_ENV'>;
  appSecret: string;
}) {
  const sendOne = createOutboxSender(deps);
  return {
    async sendOutboxEmail(input: SendOutboxEmailInput): Promise<SendOutboxEmailResult> {
      const attempt = Context.current().info.attempt;
      return { status: await sendOne(input.outboxId, attempt >= input.maxAttempts) };
    },
    /** Sends every pending row once (oldest first); a failing row is marked failed. For workflows that drain the outbox. */
    async sendPendingEmails(input: SendPendingEmailsInput): Promise<SendPendingEmailsResult> {
      const rows = await deps.outbox.listPending(input.limit);
      let sent = 0;
      let failed = 0;
      for (const r of rows) {
        const s = await sendOne(r.id, true);
        if (s === 'sent') sent++;
        if (s === 'failed') failed++;
      }
      return { sent, failed };
    },
  };
}

/**
 * Sends one outbox row (inside an activity): SMTP when configured and marks it sent; a failure is
 * noted and thrown (so the activity retries), or marks the row failed when `final`. Without SMTP
 * the row stays pending and is logged. Other capabilities' activities get it injected by the worker.
 */
export function createOutboxSender(deps: {
  outbox: OutboxRepository;
  mailer: Mailer | null;
  config: Pick<Config, 'MAIL_FROM' | 'NODE_ENV'>;
  appSecret: string;
}) {
  return async (id: string, final: boolean): Promise<SendOutboxEmailResult['status']> => {
    const row = await deps.outbox.findById(id);
    if (!row) return 'missing';
    if (row.status !== 'pending') return row.status;
    if (!deps.mailer) {
      // In development (npm start, no SMTP) the terminal is the mailbox: the text is logged so a
      // newcomer can follow a sign-up or invite link. Never outside development: links are credentials.
      const text = deps.config.NODE_ENV === 'development' ? openOutboxBody(row.body, deps.appSecret) : undefined;
      Context.current().log.info('e-mail kept in the outbox (SMTP_URL is not set)', {
        outboxId: id,
        kind: row.kind,
        to: row.to_address,
        subject: row.subject,
        ...(text ? { text } : {}),
      });
      return 'pending';
    }
    try {
      // A sealed body (an invite link) is opened only here, just before it leaves.
      await deps.mailer.send({
        from: deps.config.MAIL_FROM,
        to: row.to_address,
        subject: row.subject,
        text: openOutboxBody(row.body, deps.appSecret),
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await deps.outbox.noteError(id, message, final);
      if (final) return 'failed';
      throw err;
    }
    await deps.outbox.markSent(id);
    return 'sent';
  };
}
