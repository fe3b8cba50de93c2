import type { Knex } from 'knex';
import { z } from 'zod';
import { USER_ROLES, type UserRow } from '../../../../db/accounts/accounts-repository';
import type { ProfileService } from './profile-service';
import { profilePatchSchema } from './profile-schemas';
import { hashPassword, verifyPassword } from '../../../../lib/passwords';
import { ConflictError, ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from '../../../../lib/errors';
import type { ServiceDeps } from '../lib/service-deps';

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

const issuesOf = (error: z.ZodError) => error.issues.map((i) => ({ path: i.path.map(String).join('.') || 'form', message: i.message }));

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, message = 'Please correct the highlighted fields'): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new ValidationError(message, issuesOf(r.error), r.error.issues as unknown as ReadonlyArray<Record<string, unknown>>);
  return r.data;
}

// Verifying against a real hash when the account does not exist keeps the answer time the same.
let dummyHash: Promise<string> | null = null;

/** Sign-up, sign-in (rate-limited) and onboarding of web-application users. */
export function createAccountsService(deps: Pick<ServiceDeps, 'knex' | 'repos' | 'config'> & { profiles: ProfileService }) {
  const knex = deps.knex;
  const accounts = deps.repos.accounts;
  /** One GCRA bucket of `limit` attempts per LOGIN_ATTEMPTS_PERIOD_MS (on the database clock); refused → 429. */
  const takeLoginAttempt = async (bucket: string, limit: number) => {
    const interval = Math.ceil(LOGIN_ATTEMPTS_PERIOD_MS / limit);
    const { rows } = await knex.raw<{ rows: Array<{ allowed: boolean; tat_ms: number; now_ms: number }> }>('SELECT * FROM rate_limit_take(?, ?, ?)', [bucket, interval, LOGIN_ATTEMPTS_PERIOD_MS]);
    const { allowed, tat_ms, now_ms } = rows[0];
    if (!allowed) {
      const retryAfterMs = Number(tat_ms) + interval - LOGIN_ATTEMPTS_PERIOD_MS - Number(now_ms);
      throw new RateLimitedError(Math.max(1, Math.ceil(retryAfterMs / 1000)), limit);
    }
  };
  return {
    async signUp(input: unknown): Promise<UserRow> {
      const data = parseOrThrow(signUpSchema, input);
      if (await accounts.findUserByEmail(data.email)) {
        throw new ValidationError('That e-mail address is already registered', [{ path: 'email', message: 'already registered; sign in instead' }]);
      }
      const password_hash = await hashPassword(data.password);
      try {
        return await accounts.insertUser({ email: data.email, display_name: data.display_name, role: data.role, password_hash });
      } catch (err) {
        // Two sign-ups racing on one address: the unique index decides.
        if ((err as { code?: string }).code === '23505') {
          throw new ValidationError('That e-mail address is already registered', [{ path: 'email', message: 'already registered; sign in instead' }]);
        }
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
      if (!user || !ok) throw new ValidationError('Wrong e-mail address or password', [{ path: 'form', message: 'Wrong e-mail address or password' }]);
      return user;
    },

    async onboardSeeker(userId: string, input: unknown) {
      const user = await accounts.findUserById(userId);
      if (!user) throw new NotFoundError('user', userId);
      if (user.role !== 'seeker') throw new ForbiddenError('Only job seekers complete the seeker onboarding', 'ROLE_NOT_ALLOWED');
      const data = parseOrThrow(seekerOnboardingSchema, input);
      return deps.profiles.completeOnboarding(userId, data);
    },

    /** Creates the team (the recruiter becomes its owner) unless the recruiter joined one by invite. */
    async onboardRecruiter(userId: string, input: unknown) {
      const user = await accounts.findUserById(userId);
      if (!user) throw new NotFoundError('user', userId);
      if (user.role !== 'recruiter') throw new ForbiddenError('Only recruiters complete the recruiter onboarding', 'ROLE_NOT_ALLOWED');
      const data = parseOrThrow(recruiterOnboardingSchema, input);
      return knex.transaction(async (trx) => {
        const membership = await accounts.findMembership(userId, trx);
        if (!membership) {
          if (!data.team_name) throw new ValidationError('Name your team, or open an invite link to join one', [{ path: 'team_name', message: 'enter a team name' }]);
          const team = await accounts.insertTeam(data.team_name, trx);
          await accounts.addMember(team.id, userId, 'owner', trx);
        } else if (data.team_name) {
          throw new ConflictError('ALREADY_IN_TEAM', `You already belong to the team ${membership.team_name}`);
        }
        const profile = await deps.profiles.completeOnboarding(userId, { full_name: data.full_name, ...(data.title !== undefined ? { title: data.title } : {}) }, trx);
        return profile;
      });
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
