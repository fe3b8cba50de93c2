import type { Knex } from 'knex';

/** A seeker's remote preference (the spec's profile vocabulary; jobs use JOB_REMOTE_PREFERENCES). */
export const PROFILE_REMOTE_PREFERENCES = ['onsite', 'hybrid', 'fully_remote'] as const;
export type ProfileRemotePreference = (typeof PROFILE_REMOTE_PREFERENCES)[number];

export interface ProfileRow {
  id: string;
  user_id: string;
  full_name: string;
  title: string;
  summary: string | null;
  skills: string[];
  experience_years: number;
  location: string | null;
  remote_preference: ProfileRemotePreference | null;
  /** Lowest acceptable yearly salary; null when the seeker has not said. */
  salary_expectation: number | null;
  created_at: Date;
  updated_at: Date;
}

export type ProfileFields = Partial<
  Pick<
    ProfileRow,
    | 'full_name'
    | 'title'
    | 'summary'
    | 'skills'
    | 'experience_years'
    | 'location'
    | 'remote_preference'
    | 'salary_expectation'
  >
>;

export function createProfilesRepository(knex: Knex) {
  return {
    async findByUserId(userId: string, trx: Knex = knex): Promise<ProfileRow | undefined> {
      return trx('profiles').where({ user_id: userId }).first();
    },
    async insert(userId: string, fields: ProfileFields & { full_name: string }, trx: Knex = knex): Promise<ProfileRow> {
      const [row] = await trx('profiles')
        .insert({ user_id: userId, ...fields })
        .returning('*');
      return row;
    },
    async update(userId: string, fields: ProfileFields, trx: Knex = knex): Promise<ProfileRow | undefined> {
      const [row] = await trx('profiles')
        .where({ user_id: userId })
        .update({ ...fields, updated_at: trx.fn.now() })
        .returning('*');
      return row;
    },
  };
}
export type ProfilesRepository = ReturnType<typeof createProfilesRepository>;
