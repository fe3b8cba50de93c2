import type { Knex } from 'knex';
import { createAccountsRepository } from '../../../../db/repositories/accounts-repository';
import { createProfilesRepository, type ProfileFields, type ProfileRow } from '../../../../db/repositories/profiles-repository';
import { NotFoundError, OnboardingIncompleteError } from '../../../../lib/errors';

/** `publicBaseUrl` makes the onboarding link in a 409 absolute (the API passes its own). */
export function createProfileService(knex: Knex, opts: { publicBaseUrl?: string } = {}) {
  const accounts = createAccountsRepository(knex);
  const profiles = createProfilesRepository(knex);
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
    /** Onboarding: creates the profile and completes onboarding in one transaction. */
    async completeOnboarding(userId: string, fields: ProfileFields & { full_name: string }): Promise<ProfileRow> {
      return knex.transaction(async (trx) => {
        const existing = await profiles.findByUserId(userId, trx);
        const row = existing ? await profiles.update(userId, fields, trx) : await profiles.insert(userId, fields, trx);
        await accounts.markOnboarded(userId, trx);
        return row!;
      });
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
