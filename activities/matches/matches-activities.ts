import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import type { MatchesRepository, MatchWithJob } from '#db/matches/matches-repository';
import type { SettingsRepository } from '#db/accounts/settings-repository';
import type { AccountsRepository } from '#db/accounts/accounts-repository';
import type { EventsRepository } from '#db/events/events-repository';
import type { OutboxRepository } from '#db/notifications/outbox-repository';
import type { InterviewReportsRepository } from '#db/matches/interview-reports-repository';
import type { MatchmakingRepository } from '#db/matchmaking/matchmaking-repository';
import type {
  ClaimInterviewSlotInput,
  ClaimInterviewSlotResult,
  LoadMatchSettingsInput,
  LoadMatchSettingsResult,
  MatchNoticeKind,
  NotifyMatchPartiesInput,
  NotifyMatchPartiesResult,
  ProjectMatchInput,
} from '#workflows/matches/contract';
import { iso } from '#lib/dates';
import { domainMetrics } from '#lib/metrics';

export type {
  ClaimInterviewSlotInput,
  ClaimInterviewSlotResult,
  LoadMatchSettingsInput,
  LoadMatchSettingsResult,
  NotifyMatchPartiesInput,
  NotifyMatchPartiesResult,
  ProjectMatchInput,
};
export type ProjectMatchResult = void;

/** Sends one outbox row (activities/notifications: `createOutboxSender`), injected by the worker. */
export type SendOutboxRow = (outboxId: string, final: boolean) => Promise<string>;
/** The notice activity's retry budget: the last attempt marks an undeliverable e-mail failed instead of retrying. */
export const NOTIFY_MAX_ATTEMPTS = 5;

/** A UUID fixed by (match, notice, recipient): a retried activity enqueues each e-mail once. */
const outboxIdFor = (matchId: string, kind: string, userId: string): string => {
  const h = createHash('sha256').update(`match-notice:${matchId}:${kind}:${userId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const utc = (d: Date | null) => (d ? `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC` : 'soon');

/** Whom a new match is offered to, in the recipient's words (empty when the whole team is asked). */
function offeredClause(side: 'seeker' | 'recruiter', m: MatchWithJob, recipientId: string): string {
  const recruiter = m.recruiter_name;
  return side === 'seeker'
    ? recruiter
      ? ` It is offered to ${recruiter}; whoever of the team accepts interviews you.`
      : ''
    : m.recruiter_user_id === recipientId
      ? ' It is offered to you; anyone of the team may accept it.'
      : recruiter
        ? ` It is offered to ${recruiter}; anyone of the team may accept it, and whoever does interviews.`
        : '';
}

/** Who interviews an accepted match, in the recipient's words (empty when nobody is named). */
function interviewerClause(
  side: 'seeker' | 'recruiter',
  m: MatchWithJob,
  company: string,
  recipientId: string,
): string {
  const recruiter = m.recruiter_name;
  return side === 'seeker'
    ? recruiter
      ? ` You meet ${recruiter} of ${company}.`
      : ''
    : m.recruiter_user_id === recipientId
      ? ' You interview.'
      : recruiter
        ? ` ${recruiter} interviews the candidate; you are not needed in the room.`
        : '';
}

/**
 * Subject and text of a notice for one recipient. Plain text; no secret, no room link (rooms are
 * entered from the match page). The recruiter is named as the match names them (decision 0244):
 * before one accepts, the one it is offered to (any of the team may accept); after, the accepter.
 */
function noticeText(
  kind: MatchNoticeKind,
  side: 'seeker' | 'recruiter',
  m: MatchWithJob,
  company: string,
  url: string,
  recipientId: string,
): { subject: string; text: string } | null {
  const job = m.job_title ?? 'a job';
  const who = m.seeker_name ?? 'a candidate';
  const offered = offeredClause(side, m, recipientId);
  const interviewer = interviewerClause(side, m, company, recipientId);
  switch (kind) {
    case 'matched':
      return side === 'seeker'
        ? {
            subject: `You have a match: ${job} at ${company}`,
            text:
              `A recruiter's job fits your profile: ${job} at ${company}. A recruiter of ${company} ` +
              `will meet you.${offered}\n\nReview it and accept before ${utc(m.expires_at)}:\n${url}\n`,
          }
        : {
            subject: `New match for ${job}: ${who}`,
            text:
              `${who}${m.seeker_headline ? ` (${m.seeker_headline})` : ''} was matched with ${job}.${offered}` +
              `\n\nAccept before ${utc(m.expires_at)}:\n${url}\n`,
          };
    case 'accepted':
      return {
        subject: `Interview room open: ${job}`,
        text:
          `Both sides accepted the match for ${job}${side === 'recruiter' ? ` with ${who}` : ` at ${company}`}.` +
          `${interviewer} Enter the interview room from the match page:\n${url}\n`,
      };
    case 'declined':
      return {
        subject: `Match declined: ${job}`,
        text:
          `The match for ${job}${side === 'recruiter' ? ` with ${who}` : ` at ${company}`} was ` +
          `declined by the ${m.declined_by_role ?? 'other side'}.\n${url}\n`,
      };
    case 'expired':
      return {
        subject: `Match expired: ${job}`,
        text: `Nobody accepted the match for ${job} before ${utc(m.expires_at)}.${side === 'seeker' ? ' You are back in the queue in your original place.' : ''}\n${url}\n`,
      };
    case 'expiring': {
      const accepted = side === 'seeker' ? m.seeker_accepted_at : m.recruiter_accepted_at;
      if (accepted) return null;
      return {
        subject: `Expiring soon: your match for ${job}`,
        text:
          `The match for ${job}${side === 'recruiter' ? ` with ${who}` : ` at ${company}`} expires ` +
          `at ${utc(m.expires_at)}. Accept or decline it here:\n${url}\n`,
      };
    }
    case 'advance':
      return null; // sent with the report card's contact exchange (it knows the contact details)
    case 'no_show':
      return noShowText(side, m, company, url, recipientId);
  }
}

/**
 * A no-show, told to each side: the one who came learns the other did not (and, for the seeker,
 * that it does not count as an interview and the way back to the queue); the one who did not come
 * learns the match has ended.
 */
function noShowText(
  side: 'seeker' | 'recruiter',
  m: MatchWithJob,
  company: string,
  url: string,
  recipientId: string,
): { subject: string; text: string } {
  const job = m.job_title ?? 'a job';
  const who = m.seeker_name ?? 'the candidate';
  const missing = m.no_show_missing ?? 'both';
  // The team's e-mail goes to every member; only the interviewer was expected in the room.
  const interviewer =
    side === 'recruiter' && m.recruiter_user_id && m.recruiter_user_id !== recipientId ? m.recruiter_name : null;
  const by = utc(m.arrive_by);
  if (missing === 'both')
    return {
      subject: `No interview: ${job}`,
      text:
        `Neither side came to the interview room for ${job}${side === 'recruiter' ? ` with ${who}` : ` at ${company}`} ` +
        `by ${by}, so the match has ended without an interview.
${url}
`,
    };
  if (side === missing && interviewer)
    return {
      subject: `${interviewer} missed the interview: ${job}`,
      text:
        `${interviewer}, who accepted for your team, did not come to the interview room with ${who} for ` +
        `${job} by ${by}, so the match has ended. The candidate was told and may join the queue again.
${url}
`,
    };
  if (side === missing)
    return {
      subject: `You missed the interview: ${job}`,
      text:
        side === 'seeker'
          ? `You did not come to the interview room for ${job} at ${company} by ${by}, so the match has ended.
${url}
`
          : `${m.recruiter_user_id ? 'You did not come' : 'Nobody of your team came'} to the interview room with ${who} for ${job} by ${by}, so the match ` +
            `has ended. The candidate was told and may join the queue again.
${url}
`,
    };
  return side === 'seeker'
    ? {
        subject: `The recruiter did not come: ${job}`,
        text:
          `The recruiter of ${company} did not come to the interview room for ${job} by ${by}. This does ` +
          `not count as an interview. You can go back to the queue from the match page:
${url}
`,
      }
    : {
        subject: `The candidate did not come: ${job}`,
        text:
          `${who} did not come to the interview room for ${job} by ${by}. The match has ended and its ` +
          `interview slot is free again.
${url}
`,
      };
}

export function createMatchesActivities(deps: {
  matchesRepository: MatchesRepository;
  settingsRepository: Pick<SettingsRepository, 'findTeamSettings'>;
  accountsRepository?: Pick<AccountsRepository, 'findUserById' | 'listTeamMemberIds'>;
  eventsRepository?: Pick<EventsRepository, 'findById'>;
  outbox?: OutboxRepository;
  sendOutbox?: SendOutboxRow;
  publicBaseUrl?: string;
  expiryReminderMs?: number;
  reportWindowMs?: number;
  interviewReportsRepository?: Pick<InterviewReportsRepository, 'findByMatch'>;
  matchmakingRepository?: Pick<MatchmakingRepository, 'claimOfferForRecruiter'>;
}) {
  return {
    /**
     * Tells both sides of a match what happened by e-mail: one outbox row per recipient (the seeker;
     * every recruiter of the team), then sends them. Idempotent: a retry finds its rows and sends
     * only those still pending.
     */
    async notifyMatchParties({ matchId, kind }: NotifyMatchPartiesInput): Promise<NotifyMatchPartiesResult> {
      const { accountsRepository: accounts, eventsRepository: events, outbox, sendOutbox } = deps;
      if (!accounts || !events || !outbox || !sendOutbox)
        throw ApplicationFailure.nonRetryable(
          'notifyMatchParties needs the outbox and the accounts and events repositories',
          'MISCONFIGURED',
        );
      const m = await deps.matchesRepository.findById(matchId);
      if (!m) return { outboxIds: [], sent: 0 };
      const event = await events.findById(m.live_event_id);
      const url = `${deps.publicBaseUrl ?? ''}/matches/${m.id}`;
      const company = event?.company_name ?? 'the company';
      const ids: string[] = [];
      const messages: Array<{ userId: string; text: { subject: string; text: string } | null }> = [];
      if (kind === 'advance') {
        // The contact exchange: the seeker and the recruiter who wrote the report learn each other's address.
        const report = await deps.interviewReportsRepository?.findByMatch(m.id);
        // The seeker's contact is the recruiter who interviewed (decision 0244), else the report's author.
        const contactId = m.recruiter_user_id ?? report?.author_user_id;
        const author = contactId ? await accounts.findUserById(contactId) : undefined;
        const seeker = await accounts.findUserById(m.seeker_user_id);
        if (!report || report.outcome !== 'advance' || !author || !seeker) return { outboxIds: [], sent: 0 };
        const job = m.job_title ?? 'the job';
        // Only the interviewer writes the report card (decision 0249); a card a teammate wrote is said as theirs.
        const writer =
          report.author_user_id && report.author_user_id !== author.id
            ? ((await accounts.findUserById(report.author_user_id))?.display_name ?? 'A colleague')
            : null;
        messages.push(
          {
            userId: seeker.id,
            text: {
              subject: `Next step for ${job} at ${company}`,
              text:
                `${author.display_name} of ${company} would like to continue after your interview for ` +
                `${job}.\n\nContact: ${author.display_name} <${author.email}>\n\n${url}\n`,
            },
          },
          {
            userId: author.id,
            text: {
              subject: `Contact details: ${m.seeker_name ?? seeker.display_name}`,
              text:
                `${writer ? `${writer} chose` : 'You chose'} to advance ${m.seeker_name ?? seeker.display_name} for ${job}` +
                `${writer ? ' after your interview' : ''}.\n\nContact: ` +
                `${m.seeker_name ?? seeker.display_name} <${seeker.email}>\n\n${url}\n`,
            },
          },
        );
      } else {
        messages.push({
          userId: m.seeker_user_id,
          text: noticeText(kind, 'seeker', m, company, url, m.seeker_user_id),
        });
        for (const userId of await accounts.listTeamMemberIds(m.team_id))
          messages.push({ userId, text: noticeText(kind, 'recruiter', m, company, url, userId) });
      }
      for (const r of messages) {
        const text = r.text;
        const user = text ? await accounts.findUserById(r.userId) : undefined;
        if (!text || !user) continue;
        const id = outboxIdFor(m.id, kind, r.userId);
        await outbox.enqueue({
          id,
          to_address: user.email,
          subject: text.subject,
          body: text.text,
          kind: `match.${kind}`,
        });
        ids.push(id);
      }
      const final = Context.current().info.attempt >= NOTIFY_MAX_ATTEMPTS;
      let sent = 0;
      for (const id of ids) if ((await sendOutbox(id, final)) === 'sent') sent++;
      return { outboxIds: ids, sent };
    },

    /** Writes the match workflow's state to PostgreSQL (idempotent upsert; the only writer of `matches`). */
    async projectMatch({ state, input }: ProjectMatchInput): Promise<ProjectMatchResult> {
      const { previousStatus } = await deps.matchesRepository.upsert({
        id: state.matchId,
        status: state.status,
        seeker_user_id: state.seekerUserId,
        queue_entry_id: state.queueEntryId,
        job_id: state.jobId,
        team_id: state.teamId,
        live_event_id: state.liveEventId,
        live_event_slug: state.liveEventSlug,
        match_score: input.matchScore,
        score_breakdown: input.scoreBreakdown,
        score_version: input.scoreVersion,
        seeker_via_agent: input.seekerViaAgent,
        seeker_agent_identity: input.seekerAgentIdentity,
        expires_at: iso(state.expiresAtMs),
        seeker_accepted_at: iso(state.seekerAcceptedAtMs),
        recruiter_accepted_at: iso(state.recruiterAcceptedAtMs),
        recruiter_accepted_by: state.recruiterAcceptedBy,
        // Whoever of the team accepted is the match's recruiter from then on (decision 0244); until
        // then the row keeps the recruiter it was offered to (written with the offer).
        ...(state.recruiterAcceptedBy && !state.recruiterAutoAccepted
          ? { recruiter_user_id: state.recruiterAcceptedBy }
          : {}),
        recruiter_auto_accepted: state.recruiterAutoAccepted,
        declined_at: iso(state.declinedAtMs),
        declined_by: state.declinedBy,
        declined_by_role: state.declinedByRole,
        decline_reason: state.declineReason,
        decline_reason_code: state.declineReasonCode ?? null,
        accepted_at: iso(state.acceptedAtMs),
        interview_started_at: iso(state.interviewStartedAtMs ?? null),
        interview_ends_at: iso(state.interviewEndsAtMs),
        completed_at: iso(state.completedAtMs),
        completed_by: state.completedBy,
        expired_at: iso(state.expiredAtMs),
        seeker_in_room_at: iso(state.seekerInRoomAtMs ?? null),
        recruiter_in_room_at: iso(state.recruiterInRoomAtMs ?? null),
        arrive_by: iso(state.arriveByMs ?? null),
        no_show_at: iso(state.noShowAtMs ?? null),
        no_show_missing: state.noShowMissing ?? null,
        created_at: new Date(state.createdAtMs).toISOString(),
      });
      if (previousStatus !== state.status && state.status !== 'matched')
        domainMetrics.matchOutcomes.inc({ outcome: state.status });
    },

    /**
     * A recruiter's acceptance claims the interview slot (decision 0244): the match's offer moves
     * to the accepter when they have a free slot under the availability rules; `ok: false` refuses
     * the acceptance. Answers the accepter's display name for the Temporal UI's details.
     */
    async claimInterviewSlot({ matchId, userId }: ClaimInterviewSlotInput): Promise<ClaimInterviewSlotResult> {
      const claim = deps.matchmakingRepository
        ? await deps.matchmakingRepository.claimOfferForRecruiter(matchId, userId)
        : { ok: true };
      const user = await deps.accountsRepository?.findUserById(userId);
      return { ...claim, recruiterName: user?.display_name ?? null };
    },

    /** The team's match settings at the time the match is made (team setting `auto_accept_matches`, default false). */
    async loadMatchSettings({ teamId }: LoadMatchSettingsInput): Promise<LoadMatchSettingsResult> {
      const settings = await deps.settingsRepository.findTeamSettings(teamId);
      return {
        autoAcceptRecruiter: settings.auto_accept_matches === true,
        ...(deps.expiryReminderMs ? { expiryReminderMs: deps.expiryReminderMs } : {}),
        ...(deps.reportWindowMs ? { reportWindowMs: deps.reportWindowMs } : {}),
      };
    },
  };
}
