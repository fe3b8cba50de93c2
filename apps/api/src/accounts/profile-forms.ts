import type { FastifyRequest } from 'fastify';
import type { TeamMembership, UserRow } from '#db/accounts/accounts-repository';
import { PROFILE_REMOTE_PREFERENCES, type ProfileRow } from '#db/accounts/profiles-repository';
import { html, type SafeHtml } from '../web/html';
import {
  errorSummary,
  input,
  notice,
  postForm,
  select,
  skillInputAttrs,
  skillSuggestions,
  textarea,
  type FieldErrors,
} from '../web/layout';
import { RECRUITER_LABELS, SEEKER_LABELS } from '../web/messages';

/** What the onboarding page and the Profile page (auth-pages.ts) hand to the form of the person's role. */
export interface ProfileForm {
  request: FastifyRequest;
  /** Where the form posts: /onboarding or /account/profile. */
  action: string;
  mode: 'onboarding' | 'profile';
  errors: FieldErrors | null;
  /** The saved profile, if any. */
  existing: ProfileRow | null;
  user: UserRow;
  membership: TeamMembership | null;
  /** A field's value: what was posted, else the fallback (the saved value). */
  value: (name: string, fallback?: string | number | null) => string;
  /** The hidden fields every form carries (where to go next). */
  hidden: SafeHtml;
}

/** A seeker's profile: what recruiters see when matched (also `PATCH /api/v1/profile`). */
export function seekerProfileForm(f: ProfileForm): SafeHtml {
  const { request, action, mode, errors, existing, user, value: v, hidden: common } = f;
  return html`<h1>Your profile</h1>
<p class="lead">Recruiters see this when you are matched. You can change it here at any time (or through the API: <code>PATCH /api/v1/profile</code>).</p>
${mode === 'profile' ? notice(request) : ''}
${errorSummary(errors, SEEKER_LABELS)}
${postForm(
  request,
  action,
  html`${common}
${input({
  name: 'full_name',
  label: SEEKER_LABELS.full_name,
  value: v('full_name', existing?.full_name ?? user.display_name),
  errors,
  required: true,
  autocomplete: 'name',
})}
${input({
  name: 'title',
  label: SEEKER_LABELS.title,
  value: v('title', existing?.title),
  errors,
  required: true,
  hint: 'For example: Backend engineer',
})}
${textarea({
  name: 'summary',
  label: SEEKER_LABELS.summary,
  value: v('summary', existing?.summary),
  errors,
  hint: 'A few sentences about what you do and want next.',
})}
${input({
  name: 'skills',
  label: SEEKER_LABELS.skills,
  value: v('skills', existing?.skills.join(', ')),
  errors,
  hint: 'Separated by commas, e.g. TypeScript, PostgreSQL',
  attrs: skillInputAttrs,
})}${skillSuggestions()}
${input({
  name: 'experience_years',
  label: SEEKER_LABELS.experience_years,
  type: 'number',
  value: v('experience_years', existing?.experience_years ?? ''),
  errors,
  required: true,
  attrs: html` min="0" max="60" inputmode="numeric"`,
})}
${input({
  name: 'location',
  label: SEEKER_LABELS.location,
  value: v('location', existing?.location),
  errors,
  autocomplete: 'address-level2',
})}
${select({
  name: 'remote_preference',
  label: SEEKER_LABELS.remote_preference,
  value: v('remote_preference', existing?.remote_preference),
  errors,
  options: [
    ['', 'No preference'],
    ...PROFILE_REMOTE_PREFERENCES.map((r): [string, string] => [
      r,
      r === 'fully_remote' ? 'Fully remote' : r === 'onsite' ? 'On site' : 'Hybrid',
    ]),
  ],
})}
${input({
  name: 'salary_expectation',
  label: `${SEEKER_LABELS.salary_expectation} (optional)`,
  value: v('salary_expectation', existing?.salary_expectation ?? ''),
  errors,
  hint: 'The lowest yearly salary you would accept, e.g. 65000. Only used to score matches; recruiters do not see it.',
  attrs: html` inputmode="numeric"`,
})}
<button type="submit" class="btn btn-primary">Save profile</button>`,
  { label: 'Profile' },
)}`;
}

/** A recruiter's set-up: name, title and, without a team yet, the team they found. */
export function recruiterProfileForm(f: ProfileForm): SafeHtml {
  const { request, action, mode, errors, existing, user, membership, value: v, hidden: common } = f;
  return html`<h1>${mode === 'profile' ? 'Your profile' : 'Set up your recruiter account'}</h1>
${mode === 'profile' ? notice(request) : ''}
${errorSummary(errors, RECRUITER_LABELS)}
${postForm(
  request,
  action,
  html`${common}
${input({
  name: 'full_name',
  label: RECRUITER_LABELS.full_name,
  value: v('full_name', existing?.full_name ?? user.display_name),
  errors,
  required: true,
  autocomplete: 'name',
})}
${input({
  name: 'title',
  label: RECRUITER_LABELS.title,
  value: v('title', existing?.title),
  errors,
  hint: 'For example: Talent partner',
})}
${
  membership
    ? html`<p>You are a member of <strong>${membership.team_name}</strong>.</p>`
    : html`${input({
        name: 'team_name',
        label: RECRUITER_LABELS.team_name,
        value: v('team_name'),
        errors,
        required: true,
        autocomplete: 'organization',
        hint: 'Usually your company. You become its owner and can invite colleagues.',
      })}
<p class="hint">Joining a colleague's team instead? Open the invite link they sent you.</p>`
}
<button type="submit" class="btn btn-primary">${mode === 'profile' ? 'Save profile' : 'Continue'}</button>`,
  { label: 'Recruiter set-up' },
)}`;
}
