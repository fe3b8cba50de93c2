import type { Services } from '../../api/src/services';
import type { DemoCompany } from '#activities/demo/fair';

type Recruiter = { user: { id: string }; teamId: string };

/**
 * A company's demo event, found by slug or created (open invite, with its jobs) by the owner, and
 * the availability of its two recruiters.
 */
export async function ensureDemoEvent(
  services: Services,
  company: DemoCompany,
  owner: Recruiter,
  colleague: Recruiter,
): Promise<{ id: string }> {
  const availability = services.deps.repos.availability;
  let event = await services.deps.repos.events.findBySlug(company.slug);
  if (!event) {
    event = await services.events.liveEvents.create(owner.teamId, owner.user.id, {
      slug: company.slug,
      company_name: company.team,
      headline: company.headline,
      description: company.description,
      accent_color: company.accent,
      visibility: 'open_invite',
      interview_slots: company.slots,
    });
    for (const j of company.jobs) {
      await services.events.jobs.create(owner.teamId, {
        live_event_id: event.id,
        title: j.title,
        essential_skills: j.essential,
        bonus_skills: j.bonus,
        experience_min: j.experienceMin,
        salary_min: j.salary[0],
        salary_max: j.salary[1],
        location: j.location,
        remote_preference: j.remote,
      });
    }
  }
  // Recruiter availability (decision 0123): seeded once per recruiter, so a newcomer's own change
  // in the console (Matching settings) survives the next start.
  for (const [user, a] of [
    [owner.user, company.availability.owner],
    [colleague.user, company.availability.simulatedRecruiter],
  ] as const) {
    if (!(await availability.findOne(event.id, user.id))) await availability.upsert(event.id, user.id, a);
  }
  return event;
}
