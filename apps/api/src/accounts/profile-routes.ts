import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../plugins/auth';
import { profilePatchSchema, profileSchema } from './profile-schemas';
import type { ProfileRow } from '#db/accounts/profiles-repository';

export const toProfile = (p: ProfileRow): z.output<typeof profileSchema> => ({
  full_name: p.full_name,
  title: p.title,
  summary: p.summary,
  skills: p.skills,
  experience_years: p.experience_years,
  location: p.location,
  remote_preference: p.remote_preference,
  salary_expectation: p.salary_expectation ?? null,
  updated_at: p.updated_at.toISOString(),
});

const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const profiles = app.services.accounts.profiles;

  app.get('/profile', {
    config: { scope: 'profile:read', rateClass: 'read' },
    schema: {
      operationId: 'getProfile',
      tags: ['profile'],
      summary: "Read the caller's profile",
      response: { 200: z.object({ profile: profileSchema.nullable() }) },
    },
    handler: async (request) => {
      const p = await profiles.get(requireAuth(request).userId);
      return { profile: p ? toProfile(p) : null };
    },
  });

  app.patch('/profile', {
    config: { scope: 'profile:write', rateClass: 'write' },
    schema: {
      operationId: 'updateProfile',
      tags: ['profile'],
      summary: "Update the caller's profile",
      description:
        'Any of the listed properties; no other property is allowed. 409 ONBOARDING_INCOMPLETE ' +
        'before onboarding in the web application.',
      body: profilePatchSchema,
      response: { 200: z.object({ profile_id: z.uuid() }) },
    },
    handler: async (request) => {
      const p = await profiles.update(requireAuth(request).userId, request.body);
      return { profile_id: p.id };
    },
  });
};
export default profileRoutes;
