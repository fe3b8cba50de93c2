import type { Knex } from 'knex';
import { type ProfileFields, type ProfileRow } from '#db/accounts/profiles-repository';
import { NotFoundError, OnboardingIncompleteError } from '#lib/errors';
import type { ServiceDeps } from '../plugins/service-deps';

/** `publicBaseUrl` makes the onboarding link in a 409 absolute (the API passes its own). */
export function createProfileService(deps: Pick<ServiceDeps, 'knex' | 'repos'> & { publicBaseUrl?: string }) {
  const knex = deps.knex;
  const opts = deps;
  const accounts = deps.repos.accounts;
  const profiles = deps.repos.profiles;
  return {
    async get(userId: string): Promise<ProfileRow | null> {
      return (await profiles.findByUserId(userId)) ?? null;
    },
    /** 409 until onboarding (in the web app, or the demo seed) has created the profile. */
    async update(userId: string, fields: ProfileFields): Promise<ProfileRow> {
      const user = await accounts.findUserById(userId);
      if (!user) throw new NotFoundError('user', userId);
      if (!user.onboarding_completed_at) {
        throw new OnboardingIncompleteError(opts.publicBaseUrl ?? '', 'updating the profile');
      }
      const updated = await profiles.update(userId, fields);
      if (updated) return updated;
      return profiles.insert(userId, { full_name: user.display_name, ...fields });
    },
    /** Onboarding: creates the profile and completes onboarding in one transaction (the caller's, when given). */
    async completeOnboarding(
      userId: string,
      fields: ProfileFields & { full_name: string },
      outer?: Knex.Transaction,
    ): Promise<ProfileRow> {
      const run = async (trx: Knex.Transaction) => {
        const existing = await profiles.findByUserId(userId, trx);
        const row = existing ? await profiles.update(userId, fields, trx) : await profiles.insert(userId, fields, trx);
        await accounts.markOnboarded(userId, trx);
        return row!;
      };
      return outer ? run(outer) : knex.transaction(run);
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
