import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { sealOutboxBody } from '#lib/sealed';
import { startOutboxEmail } from '#workflows/notifications/client';
import { z } from 'zod';
import { USER_ROLES, type UserRow } from '#db/accounts/accounts-repository';
import type { ProfileService } from './profile-service';
import { profilePatchSchema } from './profile-schemas';
import { hashPassword, verifyPassword } from '#lib/passwords';
import { ConflictError, ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from '#lib/errors';
import type { ServiceDeps } from '../plugins/service-deps';
import { parseOrThrow } from '../web/forms';

/** Login attempts per (account, client IP): a burst of 10, then one every 90 s (GCRA in PostgreSQL). */
export const LOGIN_ATTEMPTS_LIMIT = 10;
export const LOGIN_ATTEMPTS_PERIOD_MS = 15 * 60 * 1000;

export const signUpSchema = z.strictObject({
  display_name: z.string().trim().min(1, 'enter your name').max(200),
  email: z.string().trim().max(254).pipe(z.email('enter a valid e-mail address')),
  password: z.string().min(10, 'at least 10 characters').max(200, 'at most 200 characters'),
  role: z.enum(USER_ROLES, 'choose job seeker or recruiter'),
});

export const signInSchema = z.strictObject({
  email: z.string().trim().min(1, 'enter your e-mail address').max(254),
  password: z.string().min(1, 'enter your password').max(200),
});

// Onboarding reuses the field schemas of PATCH /profile (one source of truth for every rule).
const profileFields = profilePatchSchema.shape;

export const seekerOnboardingSchema = z.strictObject({
  full_name: profileFields.full_name.unwrap(),
  title: profileFields.title.unwrap().min(1, 'enter your current or desired job title'),
  summary: profileFields.summary,
  skills: profileFields.skills.unwrap(),
  experience_years: profileFields.experience_years.unwrap(),
  location: profileFields.location,
  remote_preference: profileFields.remote_preference,
  salary_expectation: profileFields.salary_expectation,
});

export const recruiterOnboardingSchema = z.strictObject({
  full_name: profileFields.full_name.unwrap(),
  title: profileFields.title,
  /** Absent when the recruiter already joined a team through an invite. */
  team_name: z.string().trim().min(2, 'a team name of at least 2 characters').max(200).optional(),
});

export type SeekerOnboarding = z.output<typeof seekerOnboardingSchema>;
export type RecruiterOnboarding = z.output<typeof recruiterOnboardingSchema>;

/** How long a sign-up confirmation link stays valid. */
export const SIGNUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const SIGNUP_TOKEN_PREFIX = 'su_';
export const hashSignupToken = (token: string) => createHash('sha256').update(`signup:${token}`).digest('hex');
export const signupConfirmUrl = (baseUrl: string, token: string) => `${baseUrl}/signup/confirm/${token}`;
/** The outbox kinds of the two e-mails a sign-up sends: the link, or "you already have an account". */
export const SIGNUP_EMAIL_KINDS = { confirm: 'signup_confirm', existing: 'signup_existing' } as const;

// Verifying against a real hash when the account does not exist keeps the answer time the same.
let dummyHash: Promise<string> | null = null;

/** Sign-up, sign-in (rate-limited) and onboarding of web-application users. */
export function createAccountsService(
  deps: Pick<ServiceDeps, 'knex' | 'repos' | 'config' | 'temporal' | 'appSecret'> & { profiles: ProfileService },
) {
  const knex = deps.knex;
  const accounts = deps.repos.accounts;
  /** One GCRA bucket of `limit` attempts per LOGIN_ATTEMPTS_PERIOD_MS (on the database clock); refused → 429. */
  const takeLoginAttempt = async (bucket: string, limit: number) => {
    const interval = Math.ceil(LOGIN_ATTEMPTS_PERIOD_MS / limit);
    const { rows } = await knex.raw<{ rows: Array<{ allowed: boolean; tat_ms: number; now_ms: number }> }>(
      'SELECT * FROM rate_limit_take(?, ?, ?)',
      [bucket, interval, LOGIN_ATTEMPTS_PERIOD_MS],
    );
    const { allowed, tat_ms, now_ms } = rows[0];
    if (!allowed) {
      const retryAfterMs = Number(tat_ms) + interval - LOGIN_ATTEMPTS_PERIOD_MS - Number(now_ms);
      throw new RateLimitedError(Math.max(1, Math.ceil(retryAfterMs / 1000)), limit);
    }
  };
  return {
    /**
     * Sign-up that does not reveal registered addresses (decision 0182): the answer is the same for a
     * new and a known address — "check your inbox". A new address gets a confirmation link (the
     * account is created when it is opened); a registered one gets "someone tried to sign up with
     * your address". Both e-mails go through the outbox in the request's transaction (the link
     * sealed at rest), then to SMTP by the worker. The password is hashed either way (same time).
     */
    async requestSignUp(input: unknown, next = '/', ip: string | null = null): Promise<void> {
      const data = parseOrThrow(signUpSchema, input);
      // Each valid request sends an e-mail: limited per client IP (decision 0201), like sign-in.
      if (ip !== null) await takeLoginAttempt(`web-signup-ip:${ip}`, deps.config.SIGNUP_ATTEMPTS_PER_IP);
      const password_hash = await hashPassword(data.password);
      const base = deps.config.publicBaseUrl;
      const outboxId = randomUUID();
      await knex.transaction(async (trx) => {
        const existing = await accounts.findUserByEmail(data.email, trx);
        if (existing) {
          await deps.repos.outbox.enqueue(
            {
              id: outboxId,
              to_address: existing.email,
              kind: SIGNUP_EMAIL_KINDS.existing,
              subject: 'Someone tried to create a Job Fair account with your address',
              body: [
                `Someone (maybe you) tried to create a Job Fair account with ${existing.email}.`,
                '',
                `You already have an account. Sign in: ${base}/login`,
                '',
                'If it was not you, you can ignore this e-mail: nothing was changed.',
              ].join('\n'),
            },
            trx,
          );
          return;
        }
        const token = `${SIGNUP_TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
        await accounts.deleteSignupRequests('', trx); // expired requests only (no address is empty)
        await accounts.insertSignupRequest(
          {
            id: randomUUID(),
            token_hash: hashSignupToken(token),
            email: data.email,
            display_name: data.display_name,
            role: data.role,
            password_hash,
            next,
            expires_at: new Date(Date.now() + SIGNUP_LINK_TTL_MS),
          },
          trx,
        );
        await deps.repos.outbox.enqueue(
          {
            id: outboxId,
            to_address: data.email,
            kind: SIGNUP_EMAIL_KINDS.confirm,
            subject: 'Confirm your Job Fair account',
            // The link is a credential: sealed at rest, opened by the sender (decisions 0163, 0182).
            body: sealOutboxBody(
              [
                `Hello ${data.display_name},`,
                '',
                `Finish creating your Job Fair account: ${signupConfirmUrl(base, token)}`,
                '',
                `The link is valid for 24 hours. If you did not sign up, ignore this e-mail: no account is ` +
                  `created without it.`,
              ].join('\n'),
              deps.appSecret,
            ),
          },
          trx,
        );
      });
      // After the commit: the worker sends it (retries included). Temporal down → the row stays in the
      // outbox and the person is told to try again (503), as for any dependency outage.
      await startOutboxEmail(deps.temporal, deps.config, outboxId);
    },

    /** For the confirmation page: whose sign-up the link finishes; null when unknown or expired. */
    async previewSignUp(token: string): Promise<{ email: string; display_name: string } | null> {
      if (!token.startsWith(SIGNUP_TOKEN_PREFIX) || token.length > 200) return null;
      const row = await accounts.findSignupRequest(hashSignupToken(token));
      return row ? { email: row.email, display_name: row.display_name } : null;
    },

    /**
     * Opens a confirmation link: creates the account and voids the address's other links. Null when
     * the link is unknown, expired or already used — or the address got an account meanwhile.
     */
    async confirmSignUp(token: string): Promise<{ user: UserRow; next: string } | null> {
      if (!token.startsWith(SIGNUP_TOKEN_PREFIX) || token.length > 200) return null;
      try {
        return await knex.transaction(async (trx) => {
          const row = await accounts.findSignupRequest(hashSignupToken(token), { lock: true }, trx);
          if (!row) return null;
          await accounts.deleteSignupRequests(row.email, trx);
          if (await accounts.findUserByEmail(row.email, trx)) return null;
          const user = await accounts.insertUser(
            { email: row.email, display_name: row.display_name, role: row.role, password_hash: row.password_hash },
            trx,
          );
          return { user, next: row.next };
        });
      } catch (err) {
        // Two links of one address opened at once: the unique index decides; the second is void.
        if ((err as { code?: string }).code === '23505') return null;
        throw err;
      }
    },

    /**
     * Wrong e-mail and wrong password give the same answer. Attempts are limited per client IP
     * across all accounts (password spraying: one password against many accounts) and per account
     * and IP (guessing one account's password).
     */
    async signIn(input: unknown, ip: string): Promise<UserRow> {
      const data = parseOrThrow(signInSchema, input);
      await takeLoginAttempt(`web-login-ip:${ip}`, deps.config.LOGIN_ATTEMPTS_PER_IP);
      await takeLoginAttempt(`web-login:${data.email.toLowerCase()}:${ip}`, LOGIN_ATTEMPTS_LIMIT);
      const user = await accounts.findUserByEmail(data.email);
      const ok = user?.password_hash
        ? await verifyPassword(data.password, user.password_hash)
        : (await verifyPassword(data.password, await (dummyHash ??= hashPassword('not-a-real-password'))), false);
      if (!user || !ok)
        throw new ValidationError('Wrong e-mail address or password', [
          { path: 'form', message: 'Wrong e-mail address or password' },
        ]);
      return user;
    },

    async onboardSeeker(userId: string, input: unknown) {
      const user = await accounts.findUserById(userId);
      if (!user) throw new NotFoundError('user', userId);
      if (user.role !== 'seeker')
        throw new ForbiddenError('Only job seekers complete the seeker onboarding', 'ROLE_NOT_ALLOWED');
      const data = parseOrThrow(seekerOnboardingSchema, input);
      return deps.profiles.completeOnboarding(userId, data);
    },

    /** Creates the team (the recruiter becomes its owner) unless the recruiter joined one by invite. */
    async onboardRecruiter(userId: string, input: unknown) {
      const user = await accounts.findUserById(userId);
      if (!user) throw new NotFoundError('user', userId);
      if (user.role !== 'recruiter')
        throw new ForbiddenError('Only recruiters complete the recruiter onboarding', 'ROLE_NOT_ALLOWED');
      const data = parseOrThrow(recruiterOnboardingSchema, input);
      return knex.transaction(async (trx) => {
        const membership = await accounts.findMembership(userId, trx);
        if (!membership) {
          if (!data.team_name)
            throw new ValidationError('Name your team, or open an invite link to join one', [
              { path: 'team_name', message: 'enter a team name' },
            ]);
          const team = await accounts.insertTeam(data.team_name, trx);
          await accounts.addMember(team.id, userId, 'owner', trx);
        } else if (data.team_name) {
          throw new ConflictError('ALREADY_IN_TEAM', `You already belong to the team ${membership.team_name}`);
        }
        const profile = await deps.profiles.completeOnboarding(
          userId,
          { full_name: data.full_name, ...(data.title !== undefined ? { title: data.title } : {}) },
          trx,
        );
        return profile;
      });
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
