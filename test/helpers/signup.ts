import type { Page } from 'playwright-core';
import type { Harness } from './harness';
import { eventually } from './harness';
import { openOutboxBody } from '#lib/sealed';
import { SIGNUP_EMAIL_KINDS } from '#apps/api/src/accounts/accounts-service';
import type { WebClient } from './web-client';

/**
 * Sign-up confirms by e-mail (decision 0182). Tests without an SMTP server read the link where the
 * worker would send it from: the newest confirmation e-mail for the address in the outbox (sealed at
 * rest, opened with the app's key). Tests of the e-mail itself use the real SMTP server.
 */
export async function signupLinkFor(h: Harness, email: string, timeoutMs = 15_000): Promise<string> {
  const row = await eventually(
    async () =>
      h
        .knex('email_outbox')
        .where({ kind: SIGNUP_EMAIL_KINDS.confirm })
        .whereRaw('lower(to_address) = lower(?)', [email.trim()])
        .orderBy('created_at', 'desc')
        .first(),
    timeoutMs,
  );
  const m = /(https?:\/\/\S+\/signup\/confirm\/su_\S+)/.exec(openOutboxBody(row.body, h.config.APP_SECRET!));
  if (!m) throw new Error(`no confirmation link in the sign-up e-mail to ${email}`);
  return m[1];
}

/** The path of a link (in-process WebClient tests use paths). */
export const pathOf = (link: string) => new URL(link).pathname;

/** Opens the e-mailed link and presses "Create account"; resolves when the page has moved on. */
export async function confirmSignUpInBrowser(page: Page, h: Harness, email: string): Promise<void> {
  await page.goto(await signupLinkFor(h, email));
  await Promise.all([
    page.waitForURL((u) => !u.pathname.startsWith('/signup')),
    page.getByRole('button', { name: 'Create account' }).click(),
  ]);
}

/**
 * The whole web sign-up with an in-process WebClient: the form (303 to /signup/sent), then the
 * e-mailed link's page and its "Create account" button. Returns that last answer (303 to onboarding
 * with the session cookie); the form's answer when it did not go to /signup/sent (a validation error).
 */
export async function signUpWithClient(c: WebClient, h: Harness, form: Record<string, string>) {
  const sent = await c.submit('/signup', '/signup', form);
  if (sent.statusCode !== 303 || sent.headers.location !== '/signup/sent') return sent;
  const path = pathOf(await signupLinkFor(h, form.email));
  return c.submit(path, path, {});
}
