import { AppError } from '#lib/errors';

/**
 * The web application's message catalogue (decision 0170): every error a person reads on a page
 * comes from here — a validator's issue (zod code and bounds, or a service's own issue) becomes a
 * sentence that names the field in words, an error code becomes a sentence, and vocabulary values
 * (`fully_remote`) become words. The REST API keeps its own envelope and messages; only pages use
 * this module.
 */

/** Field names in words, for every field a web form sends (the form's label may say more). */
export const FIELD_NAMES: Record<string, string> = {
  // accounts
  display_name: 'Your name',
  email: 'E-mail address',
  password: 'Password',
  role: 'Role',
  full_name: 'Full name',
  title: 'Job title',
  summary: 'Summary',
  skills: 'Skills',
  experience_years: 'Years of experience',
  location: 'Location',
  remote_preference: 'Remote work',
  salary_expectation: 'Salary expectation',
  team_name: 'Team name',
  // tokens
  name: 'Name',
  scopes: 'Scopes',
  expires_at: 'Expiry',
  expires_in_days: 'Expiry',
  // events
  slug: 'Event address',
  company_name: 'Company name',
  headline: 'Headline',
  description: 'Description',
  accent_color: 'Accent colour',
  logo_url: 'Logo URL',
  visibility: 'Visibility',
  planned_start_at: 'Planned start',
  planned_end_at: 'Planned end',
  interview_slots: 'Interview slots',
  // jobs
  essential_skills: 'Essential skills',
  bonus_skills: 'Bonus skills',
  experience_min: 'Minimum years of experience',
  salary_min: 'Minimum salary',
  salary_max: 'Maximum salary',
  // matching
  available: 'Availability',
  capacity: 'Interviews at a time',
  min_score: 'Minimum score',
  require_essential: 'Essential skill rule',
  relax_essential: 'Essential skill rule when relaxed',
  allow_remote_mismatch: 'Remote mismatch',
  // candidates, matches
  note: 'Note',
  rating: 'Rating',
  reason: 'Reason for declining',
  reason_code: 'Reason',
  fit: 'Fit for the role',
  communication: 'Communication',
  technical: 'Technical skills',
  outcome: 'Next step',
  notes: 'Notes',
  // webhooks
  target_url: 'Target URL',
  events: 'Events',
  // billing
  plan: 'Plan',
  interval: 'Billing interval',
  card_number: 'Card number',
  expiry: 'Card expiry',
  cvc: 'Security code (CVC)',
};

/** Each form's field labels, as the form shows them (and its error summary names the fields). */
export const SIGNUP_LABELS = {
  display_name: 'Your name',
  email: 'E-mail address',
  password: 'Password',
  role: 'I am a',
};
export const SEEKER_LABELS = {
  full_name: 'Full name',
  title: 'Job title',
  summary: 'Summary',
  skills: 'Skills',
  experience_years: 'Years of experience',
  location: 'Location',
  remote_preference: 'Remote preference',
  salary_expectation: 'Salary expectation',
};
export const RECRUITER_LABELS = { full_name: 'Full name', title: 'Job title', team_name: 'Team name' };
export const EVENT_LABELS: Record<string, string> = {
  slug: 'Address (slug)',
  company_name: 'Company name',
  headline: 'Headline',
  description: 'Description',
  accent_color: 'Accent colour',
  logo_url: 'Logo URL',
  visibility: 'Visibility',
  planned_start_at: 'Planned start (UTC)',
  planned_end_at: 'Planned end (UTC)',
  interview_slots: 'Interview slots',
};
export const JOB_LABELS: Record<string, string> = {
  title: 'Job title',
  essential_skills: 'Essential skills',
  bonus_skills: 'Bonus skills',
  experience_min: 'Minimum years of experience',
  salary_min: 'Salary from',
  salary_max: 'Salary to',
  location: 'Location',
  remote_preference: 'Remote work',
};
export const SIGNIN_LABELS = { email: 'E-mail address', password: 'Password' };
export const INVITE_LABELS = { email: 'E-mail address', role: 'Role' };
export const TOKEN_LABELS = { name: 'Name', expires_in_days: 'Expiry' };
export const WEBHOOK_LABELS = { target_url: 'Target URL', events: 'Events', description: 'Description' };
export const CANDIDATE_NOTE_LABELS = { note: 'Note', rating: 'Rating' };
export const AVAILABILITY_LABELS = {
  available: 'Take new interviews at this event?',
  capacity: 'Interviews at a time',
};
export const QUALITY_FLOOR_LABELS = {
  min_score: 'Minimum score (0–100)',
  require_essential: 'Require at least one essential skill',
  relax_essential: 'Once relaxed, offer jobs that share none of their essential skills',
  allow_remote_mismatch: 'Offer on-site jobs to seekers who want fully remote work',
};
export const MATCH_DECLINE_LABELS = { reason: 'Reason for declining' };
/** Leaving the queue, and declining a match with or without leaving (the queue box and the match page). */
export const QUEUE_EXIT_TEXT = {
  leave: 'Leave the queue',
  leaveMatched: 'Decline the match and leave',
  leaveMatchedConsequence:
    'You have a match waiting for your answer. Leaving the queue declines it (the recruiter is told ' +
    'that you left the queue), and you are not offered another job. You can join a queue again later.',
  matchedHint: 'Not for you? Decline it on the match page, or leave the queue: leaving declines this match.',
  leftWithMatch: 'You left the queue and declined your match',
  decline: 'Decline',
  declineAndLeave: 'Decline and leave the queue',
  declineHint:
    '“Decline” keeps you in the queue: you may be matched with another job straight away. ' +
    '“Decline and leave the queue” also takes you out of the queue, so no other match comes.',
  declinedAndLeft:
    'You declined the match and left the queue: no other match will be offered. Join a queue again whenever you like.',
  leftQueue: 'You left the queue.',
  leftQueueDeclined: 'You left the queue and declined your pending match.',
};
export const MATCH_REPORT_LABELS = {
  fit: 'Fit for the role',
  communication: 'Communication',
  technical: 'Technical skills',
  outcome: 'Next step',
  notes: 'Notes (for your team only)',
};
export const BILLING_LABELS = {
  plan: 'Plan',
  interval: 'Billing interval',
  card_number: 'Card number',
  expiry: 'Expiry (MM/YY)',
  cvc: 'CVC',
};

/** A field's name in words: the catalogue's, else its key made readable ("team_name" → "Team name"). */
export function fieldName(key: string): string {
  const k = key.replace(/^(body|query|params|headers)\./, '').split('.')[0];
  if (FIELD_NAMES[k]) return FIELD_NAMES[k];
  const words = k.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'This field';
}

const lower = (s: string) => (/^[A-Z][a-z-]/.test(s) && !/^(URL|CVC)\b/.test(s) ? s[0].toLowerCase() + s.slice(1) : s);

/** Vocabulary values in words (profile and job remote work, statuses people see). */
export const CHOICE_WORDS: Record<string, string> = {
  fully_remote: 'fully remote',
  remote: 'remote',
  hybrid: 'hybrid',
  onsite: 'on site',
  follow_up: 'follow up',
  past_due: 'past due',
  dead_letter: 'dead letter',
  not_interested: 'not interested',
  open_invite: 'open invite',
};

/** A vocabulary value as words ("fully_remote" → "fully remote"); unknown values lose their underscores. */
export const choiceWords = (value: string | null | undefined): string =>
  value ? (CHOICE_WORDS[value] ?? value.replace(/_/g, ' ')) : '';

/**
 * A score component's explanation in words: vocabulary values as words, and "5 of 4 required
 * years" said as people say it.
 */
export function scoreDetailWords(detail: string): string {
  const years = /^(\d+) of (\d+) required years$/.exec(detail);
  if (years) {
    const [has, needs] = [Number(years[1]), Number(years[2])];
    const y = (n: number) => `${n} year${n === 1 ? '' : 's'}`;
    return has >= needs
      ? `${y(has)} of experience; the job asks for at least ${y(needs)}`
      : `${y(has)} of experience; the job asks for ${y(needs)}`;
  }
  return detail.replace(/\b[a-z]+(?:_[a-z]+)*\b/g, (w) => CHOICE_WORDS[w] ?? w.replace(/_/g, ' '));
}

/**
 * A job's yearly salary range with its currency ("$85,000 – $110,000 a year"). Jobs carry no
 * currency of their own: amounts are in the service's one currency, BILLING_CURRENCY.
 */
export function salaryRange(min: number | null, max: number | null, currency: string): string | null {
  if (min === null && max === null) return null;
  const f = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    maximumFractionDigits: 0,
  });
  if (min !== null && max !== null) return `${f.format(min)} – ${f.format(max)} a year`;
  return min !== null ? `from ${f.format(min)} a year` : `up to ${f.format(max!)} a year`;
}

/** What a validator says about one field: zod's issue (code and bounds) or a service's own `{ path, message }`. */
export interface IssueLike {
  path: string;
  message: string;
  code?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  origin?: string;
  expected?: string;
  format?: string;
  values?: unknown[];
}

/** zod's default messages ("Too small: expected number to be >=0", "Invalid input: …"); anything else was written for people. */
const VALIDATOR_DEFAULT = /^(Invalid|Too small|Too big|Unrecognized key|Expected|Required)\b/;
/** What must never reach a page: validator vocabulary and identifiers. */
export const RAW_TEXT = /expected|Too small|Too big|invalid_type|_/;

const n = (v: number | bigint | undefined) => (v === undefined ? '' : String(v));

function fromCode(i: IssueLike, field: string): string | null {
  const f = field;
  switch (i.code) {
    case 'invalid_type':
      if (/received undefined|received null/.test(i.message)) return `${f} is required`;
      if (i.expected === 'int') return `${f} must be a whole number`;
      if (i.expected === 'number' || i.expected === 'bigint') return `${f} must be a number`;
      if (i.expected === 'array') return `Choose at least one option for ${lower(f)}`;
      if (i.expected === 'boolean') return `Choose yes or no for ${lower(f)}`;
      return `${f} is required`;
    case 'too_small': {
      const min = n(i.minimum);
      if (i.origin === 'string')
        return min === '1' ? `${f} is required` : `${f} must be at least ${min} characters long`;
      if (i.origin === 'array' || i.origin === 'set')
        return min === '1' ? `Choose at least one option for ${lower(f)}` : `${f} needs at least ${min} entries`;
      if (i.origin === 'date') return `${f} is too early`;
      return i.inclusive === false ? `${f} must be more than ${min}` : `${f} must be ${min} or more`;
    }
    case 'too_big': {
      const max = n(i.maximum);
      if (i.origin === 'string') return `${f} must be ${max} characters or fewer`;
      if (i.origin === 'array' || i.origin === 'set') return `${f} can have at most ${max} entries`;
      if (i.origin === 'date') return `${f} is too late`;
      return i.inclusive === false ? `${f} must be less than ${max}` : `${f} must be ${max} or less`;
    }
    case 'invalid_format':
      if (i.format === 'email') return 'Enter an e-mail address like name@example.com';
      if (i.format === 'url') return `${f} must be a web address starting with https://`;
      if (i.format === 'datetime' || i.format === 'date') return `${f} must be a date and time`;
      if (i.format === 'uuid') return `${f} is not a valid reference; reload the page and try again`;
      return `${f} is not in the expected form`;
    case 'not_multiple_of':
      return `${f} must be a whole number`;
    case 'invalid_value':
    case 'invalid_union':
      return `Choose one of the options for ${lower(f)}`;
    case 'unrecognized_keys':
      return 'The form sent something this page does not know; reload the page and try again';
    default:
      return null;
  }
}

/** Identifiers inside a sentence become field names ("must be less than or equal to salary_max"). */
const wordsForIdentifiers = (s: string) =>
  s.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) =>
    FIELD_NAMES[w] ? lower(FIELD_NAMES[w]) : (CHOICE_WORDS[w] ?? w.replace(/_/g, ' ')),
  );

/** One issue as a sentence that names the field in words. */
export function issueMessage(issue: IssueLike): string {
  const key = issue.path.replace(/^(body|query|params|headers)\./, '');
  const isForm = key === '' || key === 'form' || key === 'body';
  const field = isForm ? 'This form' : fieldName(key);
  let text: string | null = null;
  if (issue.code && (VALIDATOR_DEFAULT.test(issue.message) || !issue.message)) text = fromCode(issue, field);
  else if (!issue.code && VALIDATOR_DEFAULT.test(issue.message)) text = `${field} is not valid`;
  if (text === null) {
    // Written for people (a schema's own message or a service's issue): complete it into a sentence.
    let m = wordsForIdentifiers(issue.message.trim());
    if (/^(at most|at least)\b/.test(m) && !isForm) m = `${field} must be ${m}`;
    else if (/^(must|is|are|should|cannot|can't|conflicts|has|needs)\b/.test(m) && !isForm) m = `${field} ${m}`;
    else if (/^already registered/.test(m)) m = `This ${lower(field)} is ${m}`;
    text = m ? m[0].toUpperCase() + m.slice(1) : `${field} is not valid`;
  }
  return RAW_TEXT.test(text) ? `${field} is not valid` : text;
}

/** Sentences for the error codes a page may show (the envelope's `code`); others keep their message. */
export const CODE_MESSAGES: Record<string, string> = {
  MATCH_NOT_ACCEPTABLE: 'This match can no longer be accepted: it was declined, or its time to accept ran out.',
  MATCH_NOT_DECLINABLE: 'This match can no longer be declined: it has already moved on.',
  MATCH_NOT_ACCEPTED: 'The interview room opens once both of you have accepted the match.',
  MATCH_ROOM_CLOSED: 'The interview room is closed.',
  ROOM_CLOSED: 'The interview room is closed.',
  MATCH_INTERVIEW_COMPLETED: 'This interview has already ended.',
  MATCH_NOT_COMPLETED: 'The report card opens once the interview has ended.',
  JOB_CLOSED: 'This job is closed and can no longer be changed.',
  EVENT_ALREADY_ENDED: 'This event has ended.',
  EVENT_SLUG_LOCKED: 'The event address cannot change once the event has gone live.',
  SLUG_TAKEN: 'That event address is taken; choose another.',
  QUEUE_ENTRY_MATCHED:
    'You already have a match: accept or decline it on its page, or leave the queue (which declines it) before joining another.',
  QUEUE_ENTRY_MATCH_ACCEPTED:
    'Your match was accepted by both sides, so there is no queue to leave: go to the interview from the match page.',
  WEBHOOK_NOT_ACTIVE: 'This webhook subscription is not active; re-enable it first.',
  DELIVERY_NOT_DEAD_LETTER: 'Only deliveries that gave up (dead letters) can be sent again.',
  DELIVERY_IN_PROGRESS: 'This delivery is still being tried; wait for it to finish.',
  RATE_LIMITED: 'Too many attempts in a short time. Wait a moment and try again.',
  UNAUTHENTICATED: 'Please sign in.',
  CSRF_FAILED: 'This form expired. Reload the page and try again.',
  ORIGIN_REFUSED: 'This form was sent from another site and was refused.',
  DEPENDENCY_UNAVAILABLE: 'Part of the service is unavailable just now. Please try again in a moment.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
  PAYLOAD_TOO_LARGE: 'What you sent is too large.',
  URI_TOO_LONG: 'That address is too long.',
  IDEMPOTENCY_KEY_IN_USE: 'The same request is still being handled; wait a moment.',
  ROOM_TOKEN_INVALID: 'This room link is not valid or has expired. Open the match page to enter the room again.',
  ROOM_TOKEN_NOT_YOURS: 'This room link was issued to someone else. Open the match page signed in as yourself.',
  INTERVIEW_NOT_STARTED:
    'The interview has not started: the other person has not come to the room. If they do not come in time, the match ends as a no-show.',
  MATCH_RECRUITER_AT_CAPACITY:
    'You have no free interview slot at this event, so you cannot take this interview. It stays offered to your team.',
  MATCH_NOT_YOUR_INTERVIEW:
    'Another recruiter of your team accepted this match and is its interviewer: only they can decline it, enter the room and write the report card.',
};

/** A page's sentence for an error: its code's, else its own message with identifiers in words. */
export function codeMessage(code: string | undefined, message: string): string {
  if (code && CODE_MESSAGES[code]) return CODE_MESSAGES[code];
  if (code === 'VALIDATION') return 'Some of what was sent is not valid. Please check it and try again.';
  // The API's message ends with the upgrade address for agents; a page links the Billing page instead.
  if (code === 'PLAN_LIMIT_REACHED') message = message.replace(/ \((?:https?:\/\/|\/)[^\s)]*\)$/, '.');
  const m = wordsForIdentifiers(message.replace(/^Invalid request: /, ''));
  return RAW_TEXT.test(m) ? 'That did not work. Please check what you entered and try again.' : m;
}

/** `codeMessage` for a caught error (AppError or anything else). */
export function errorMessage(err: unknown): string {
  if (err instanceof AppError) return codeMessage(err.code, err.message);
  return CODE_MESSAGES.INTERNAL;
}

/**
 * Who did what in a match, in words, per viewer (composed by apps/api/src/matches/match-status-line.ts;
 * decision 0244: whoever of the team accepts interviews).
 */
export const MATCH_PEOPLE_WORDS = {
  you: 'you',
  theCandidate: 'the candidate',
  aRecruiter: 'a recruiter',
  youAccepted: 'You accepted',
  candidateAccepted: 'The candidate accepted',
  aRecruiterAccepted: 'A recruiter accepted',
  teamAutoAccepted: 'Accepted automatically for the team',
  accepted: (name: string) => `${name} accepted`,
  offeredToName: (name: string) => `offered to ${name}`,
  waitingFor: (who: string[]) => `Waiting for ${who.join(' and ')}`,
  bothAccepted: 'Both accepted: the interview room is open',
  bothAcceptedMeet: (name: string) => `Both accepted: you meet ${name} in the interview room`,
  bothAcceptedTeammate: (name: string) => `Both accepted: ${name} interviews the candidate`,
  declined: 'Declined',
  expired: 'Expired: nobody accepted in time',
  completed: 'Interview completed',
  completedWith: (name: string) => `Interview with ${name} completed`,
  noShow: 'No-show: the interview did not take place',
  /** The seeker's job panel: who they will meet. */
  seekerMeetsTeam: (company: string) => `A recruiter of ${company} will meet you`,
  seekerOfferedTo: (name: string) => `the match is offered to ${name}; whoever of the team accepts interviews you`,
  seekerMeets: (name: string, company: string) => `You will meet ${name}, a recruiter of ${company}`,
  seekerMet: (name: string, company: string) => `You met ${name}, a recruiter of ${company}`,
  /** A match that ended without an interview (declined, expired, no-show). */
  seekerWasToMeet: (name: string, company: string) => `The interviewer was to be ${name}, a recruiter of ${company}`,
  seekerTeamWas: (company: string) => `The match was with a recruiter of ${company}`,
  /** A teammate's match page once a colleague accepted. */
  colleagueInterviews: (name: string) =>
    `${name} accepted for the team and interviews the candidate: you are not needed in the room.`,
  updatesItself: 'This page updates by itself.',
  /** A recruiter viewer when the match names nobody in particular (anyone of the team may accept). */
  yourTeam: 'your team',
  colleagueInterviewsHeading: (name: string) => `${name} interviews the candidate`,
  /** The report card is the interviewer's (only they were in the room). */
  colleagueWritesReport: (name: string) =>
    `${name} interviewed the candidate and writes the report card; the next step shows here once it is saved.`,
  colleagueSavedReport: (name: string) => `${name} saved the report card`,
  colleagueAdvanced: (name: string) =>
    `${name} chose to advance this candidate: they and the candidate received each other's contact details by e-mail.`,
  /** A teammate's match page while it waits for the candidate: the decision is the accepter's. */
  colleagueDecides: (name: string) =>
    `${name} accepted for the team and decides for it: only they can decline this match.`,
};

/** The interview room's connection: which path the call takes, reconnecting, and no path at all (room.js shows them). */
export const ROOM_CALL_WORDS = {
  pathDirect: 'Direct: the call runs straight between your two browsers.',
  pathRelayed:
    'Relayed: your networks do not allow a direct route, so the call passes through our relay server (still encrypted end to end).',
  reconnecting: 'The connection dropped. Reconnecting… The interview keeps running meanwhile.',
  noPathTitle: 'No connection between your browsers',
  noPathLead: 'Your browser and the other person’s could not find a way to reach each other. You can try:',
  noPathTries: [
    'another network: your phone’s hotspot, or a home network instead of an office one;',
    'turning off a VPN or a proxy for this call;',
    'if you are on a company network, asking its IT team to allow UDP and TCP to port 443 for video calls;',
    'another up-to-date browser (Chrome, Edge, Firefox or Safari).',
  ],
  noPathRetry: 'Try again',
};

/** The interview room on LiveKit (VIDEO_PROVIDER=livekit): the texts that differ from the built-in room's. */
export const ROOM_LIVEKIT_WORDS = {
  pathServer: 'Through our video server: each of you sends the call to it, and it passes it on to the other.',
  howItRuns: 'The call runs through our video server (encrypted on the way); nothing is recorded.',
  noPathTitle: 'No connection to the video server',
  noPathLead: 'Your browser could not reach our video server. You can try:',
  noPathTries: [
    'another network: your phone’s hotspot, or a home network instead of an office one;',
    'turning off a VPN or a proxy for this call;',
    'if you are on a company network, asking its IT team to allow WebSocket connections and UDP and TCP to port 443 for video calls;',
    'another up-to-date browser (Chrome, Edge, Firefox or Safari).',
  ],
};

/**
 * What room.js says as the call goes (status line, pre-join check, clock, leaving): the page
 * passes them to the script in `data-words` on `#room`. `{time}` is filled in by the script.
 */
export const ROOM_SCRIPT_WORDS = {
  connecting: 'Connecting…',
  connected: 'Connected. You are in the interview.',
  reconnecting: 'Reconnecting…',
  callClosed: 'Call closed.',
  noConnection: 'No connection.',
  waiting: 'Waiting for the other person to join…',
  otherHere: 'The other person is here. Connecting…',
  otherLeft: 'The other person left the room; waiting for them to come back…',
  otherAway: 'The other person’s connection dropped. Waiting for them to reconnect… The interview keeps running.',
  signalLost: 'Your connection to the room dropped. Reconnecting… The interview keeps running.',
  replaced: 'You opened this room in another tab or window: the call continues there.',
  clockRunning: 'You are both here: the interview clock is running. It ends at {time}.',
  ended: 'The interview has ended.',
  timeUp: 'Time is up: the interview has ended.',
  noShow: 'The other person did not come: the match ended as a no-show.',
  cameraOff: 'Turn camera off',
  cameraOn: 'Turn camera on',
  micOff: 'Mute microphone',
  micOn: 'Unmute microphone',
  noDevicesInCall: 'No camera or microphone in use: you can still see and hear the other person.',
  precheckBoth: 'Your camera and microphone work. Choose others below if you like, then join.',
  precheckMicOnly: 'Your microphone works; no camera is in use. You can join without video.',
  precheckCameraOnly:
    'Your camera works; no microphone is in use. You can join, but the other person will not hear you.',
  precheckDenied:
    'Your browser blocked the camera and microphone for this site. Allow them in the site settings (the camera icon in the address bar) and reload this page, or join without them: you will still see and hear the other person.',
  precheckNone:
    'No camera or microphone was found. Connect one and reload this page, or join without them: you will still see and hear the other person.',
  precheckBusy:
    'Your camera or microphone is in use by another program. Close it and reload this page, or join without them.',
  precheckUnsupported:
    'This browser cannot use a camera or microphone here. You can join and still see and hear the other person.',
  noCameraFound: 'No camera found',
  noMicFound: 'No microphone found',
  cameraN: 'Camera {n}',
  micN: 'Microphone {n}',
};

/** The OAuth consent page and the "Connected apps" list of the token page (decision 0260). */
export const OAUTH_CONSENT_TEXT = {
  title: (client: string) => `Allow ${client} to act for you?`,
  lead: (client: string, resource: string) =>
    `${client} asks to use ${resource} as you, with the scopes below. Untick any you do not want it to have. It can never accept a match or enter an interview room: that is always you, here.`,
  client: 'App',
  origin: 'Its address',
  account: 'Your account',
  scopesLegend: 'What it may do',
  scopesHint: 'Each box is one permission. Keep only what the app needs.',
  revokeHint: 'You can see and revoke this app at any time under Connected apps on your API tokens page.',
  approve: 'Allow',
  refuse: 'Refuse',
  formLabel: 'Allow or refuse the app',
  noScope: 'Keep at least one permission, or refuse.',
  fatalTitle: 'This app’s request cannot be used',
  fatalLead: 'The app sent a sign-in request we cannot check, so we are not sending you back to it.',
  connectedHeading: 'Connected apps',
  connectedLead: 'Apps you allowed through OAuth. Revoking one ends its access and its refresh at once.',
  connectedNone: 'No connected apps.',
};
