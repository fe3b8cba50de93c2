import type { LiveEventRow } from '#db/events/events-repository';
import type { JobRow } from '#db/events/jobs-repository';
import { choiceWords } from '../web/messages';

type Json = Record<string, unknown>;

const iso = (d: Date | null | undefined): string | undefined => (d ? d.toISOString() : undefined);
const compact = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * The schema.org description of an event page, as JSON-LD (https://schema.org/Event and
 * https://schema.org/JobPosting, in the shape Google's job and event search read): the event,
 * online, organised by the company, and each open job it hires for. Only events anyone may find
 * (open invite, not a draft) carry it; a private event is not advertised to crawlers.
 */
export function eventStructuredData(
  event: LiveEventRow,
  jobs: JobRow[],
  opts: { publicBaseUrl: string; currency: string; name: string },
): Json | null {
  if (event.visibility !== 'open_invite' || event.status === 'draft') return null;
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const url = `${base}/events/${encodeURIComponent(event.slug)}`;
  const organization = compact({
    '@type': 'Organization',
    name: event.company_name,
    logo: event.logo_url ?? undefined,
  });
  const start = event.started_at ?? event.planned_start_at;
  const end = event.ended_at ?? event.ends_at ?? event.planned_end_at;
  const postings = jobs.map((j) =>
    compact({
      '@type': 'JobPosting',
      '@id': `${url}#job-${j.id}`,
      title: j.title,
      description: jobDescription(j, event.company_name),
      datePosted: iso(j.created_at),
      // Offered while the event runs: the posting's end is the event's.
      validThrough: iso(event.ended_at ?? event.ends_at ?? event.planned_end_at),
      hiringOrganization: organization,
      identifier: { '@type': 'PropertyValue', name: event.company_name, value: j.id },
      url,
      directApply: false,
      skills: [...j.essential_skills, ...j.bonus_skills].join(', ') || undefined,
      experienceRequirements:
        j.experience_min > 0
          ? { '@type': 'OccupationalExperienceRequirements', monthsOfExperience: j.experience_min * 12 }
          : undefined,
      baseSalary:
        j.salary_min !== null || j.salary_max !== null
          ? {
              '@type': 'MonetaryAmount',
              currency: opts.currency.toUpperCase(),
              value: compact({
                '@type': 'QuantitativeValue',
                minValue: j.salary_min ?? undefined,
                maxValue: j.salary_max ?? undefined,
                unitText: 'YEAR',
              }),
            }
          : undefined,
      jobLocationType: j.remote_preference === 'remote' ? 'TELECOMMUTE' : undefined,
      jobLocation: j.location
        ? { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: j.location } }
        : undefined,
    }),
  );
  return {
    '@context': 'https://schema.org',
    '@graph': [
      compact({
        '@type': 'Event',
        '@id': `${url}#event`,
        name: opts.name,
        description: event.description ?? event.headline ?? undefined,
        url,
        image: event.logo_url ?? undefined,
        startDate: iso(start),
        endDate: iso(end),
        eventStatus: 'https://schema.org/EventScheduled',
        eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
        location: { '@type': 'VirtualLocation', url },
        organizer: organization,
        isAccessibleForFree: true,
        // The jobs the event hires for, each a posting of its own in this graph.
        about: postings.length ? postings.map((p) => ({ '@id': p['@id'] })) : undefined,
      }),
      ...postings,
    ],
  };
}

/** A job has no free-text description: say what the page says, in one sentence per fact. */
function jobDescription(j: JobRow, company: string): string {
  const parts = [`${j.title} at ${company}, hiring live at an online job fair.`];
  if (j.essential_skills.length) parts.push(`Essential skills: ${j.essential_skills.join(', ')}.`);
  if (j.bonus_skills.length) parts.push(`Bonus skills: ${j.bonus_skills.join(', ')}.`);
  if (j.experience_min > 0) parts.push(`At least ${j.experience_min} years of experience.`);
  if (j.remote_preference) parts.push(`Work: ${choiceWords(j.remote_preference)}.`);
  if (j.location) parts.push(`Location: ${j.location}.`);
  return parts.join(' ');
}

/**
 * JSON-LD for a `<script type="application/ld+json">` block: `<`, `>` and `&` escaped as JSON
 * unicode escapes, so text people wrote (a job title with `</script>`) cannot end the block.
 */
export function jsonLdText(data: Json): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
