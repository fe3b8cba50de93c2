import type { Client } from '@temporalio/client';
import { log } from '@temporalio/activity';
import type { Repositories } from '#db/repositories';
import {
  acceptMatchUpdate,
  enteredRoomUpdate,
  interviewCompletedSignal,
  matchWorkflowId,
  type MatchPartyRole,
} from '#workflows/matches/contract';
import type { DemoSimulationStepInput, DemoSimulationStepResult } from '#workflows/demo/contract';
import {
  DEMO_AGENT_IDENTITY,
  DEMO_COMPANIES,
  DEMO_SEEKER,
  DEMO_SIMULATED_SEEKERS,
  type DemoPerson,
  type DemoSeeker,
} from './fair';
import type { DemoTokenStore } from './demo-tokens';

/** A simulated seeker with no open queue entry, and the event its agent would join. */
type IdleSeeker = { name: string; token: string; slug: string };

/** How a simulated agent joins a queue: the public API, as any agent does (POST /queue/join). */
export type DemoAgentJoin = (token: string, liveEventSlug: string) => Promise<{ status: number; code?: string }>;

export function httpAgentJoin(baseUrl: string): DemoAgentJoin {
  return async (token, slug) => {
    const res = await fetch(`${baseUrl}/api/v1/queue/join`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-agent-identity': DEMO_AGENT_IDENTITY,
      },
      body: JSON.stringify({ live_event_slug: slug }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => ({}))) as { code?: string };
    return { status: res.status, ...(body.code ? { code: body.code } : {}) };
  };
}

/**
 * Whether a simulated colleague accepts a match of the team: matches offered to the demo recruiter
 * (a real person at the keyboard, DEMO_COMPANIES[0].owner) are hers to accept unless
 * DEMO_RECRUITER_KEEPS_OWN_MATCHES is off; the rest (offered to a colleague, to an owner nobody
 * plays, or to nobody in particular) the colleague takes.
 */
export function colleagueAccepts(
  m: { recruiter_user_id: string | null },
  o: { demoRecruiterId: string | null; keepOwn: boolean },
): boolean {
  return !(o.keepOwn && o.demoRecruiterId !== null && m.recruiter_user_id === o.demoRecruiterId);
}

/**
 * The simulator's one activity (docs/decisions/0151-living-demo.md). It acts only for simulated
 * people — and once for the demo seeker, whose "agent" joins her first queue so she finds a real
 * match waiting; her acceptance stays hers (the web app). Everything goes through public faces:
 * joins through the HTTP API, answers through the match workflow's own Update and signal.
 */
export function createDemoActivities(deps: {
  repos: Pick<Repositories, 'accounts' | 'matches' | 'queue' | 'events'>;
  client: Client;
  tokens: DemoTokenStore;
  agentJoin: DemoAgentJoin;
  /** DEMO_RECRUITER_KEEPS_OWN_MATCHES: colleagues leave the demo recruiter's matches to her (default true). */
  demoRecruiterKeepsOwnMatches?: boolean;
}) {
  const { accounts, matches, queue, events } = deps.repos;
  const idOf = async (p: DemoPerson) => (await accounts.findUserByEmail(p.email))?.id ?? null;

  /** A simulated person "comes to the interview room" (the room's own Update): no no-show for the simulation. */
  const arrive = async (matchId: string, userId: string, role: MatchPartyRole): Promise<void> => {
    try {
      await deps.client.workflow
        .getHandle(matchWorkflowId(matchId))
        .executeUpdate(enteredRoomUpdate, { args: [{ userId, role }] });
    } catch (err) {
      log.debug('demo: arrival refused', { matchId, role, error: (err as Error).message });
    }
  };

  const answer = async (matchId: string, userId: string, role: MatchPartyRole): Promise<boolean> => {
    try {
      await deps.client.workflow
        .getHandle(matchWorkflowId(matchId))
        .executeUpdate(acceptMatchUpdate, { args: [{ userId, role }] });
      return true;
    } catch (err) {
      // Declined, expired or closed meanwhile: nothing to answer.
      log.debug('demo: acceptance refused', { matchId, role, error: (err as Error).message });
      return false;
    }
  };

  type Said = string[];

  /**
   * Recruiters: a simulated colleague accepts each of the team's new matches after a moment, but
   * leaves the demo recruiter's own (offered to her) to her; an accepted one's colleague comes to the room.
   */
  const colleaguesAnswer = async (input: DemoSimulationStepInput, now: number, said: Said): Promise<number> => {
    let accepted = 0;
    const demoRecruiterId = await idOf(DEMO_COMPANIES[0].owner);
    const keepOwn = deps.demoRecruiterKeepsOwnMatches ?? true;
    for (const company of DEMO_COMPANIES) {
      const recruiterId = await idOf(company.simulatedRecruiter);
      const membership = recruiterId ? await accounts.findMembership(recruiterId) : undefined;
      if (!recruiterId || !membership) continue;
      for (const m of await matches.listForTeam(membership.team_id, 50)) {
        if (
          m.status === 'accepted' &&
          m.recruiter_accepted_by === recruiterId &&
          m.arrive_by &&
          !m.recruiter_in_room_at
        )
          await arrive(m.id, recruiterId, 'recruiter');
        if (
          m.status !== 'matched' ||
          m.recruiter_accepted_at ||
          now - m.created_at.getTime() < input.recruiterDelayMs ||
          !colleagueAccepts(m, { demoRecruiterId, keepOwn })
        )
          continue;
        if (await answer(m.id, recruiterId, 'recruiter')) {
          accepted++;
          said.push(`${company.simulatedRecruiter.name} accepted a match for "${m.job_title}"`);
        }
      }
    }
    return accepted;
  };

  /** One simulated seeker accepts their matches, comes to the room and finishes their interviews. */
  const seekerAnswers = async (
    s: DemoSeeker,
    userId: string,
    input: DemoSimulationStepInput,
    now: number,
    said: Said,
  ): Promise<{ accepted: number; completed: number }> => {
    let accepted = 0;
    let completed = 0;
    for (const m of await matches.listForSeeker(userId, 5)) {
      if (m.status === 'matched' && !m.seeker_accepted_at && (await answer(m.id, userId, 'seeker'))) {
        accepted++;
        said.push(`${s.name} accepted "${m.job_title}"`);
      }
      // A simulated seeker is in the room as soon as the match is accepted (and so is its simulated
      // colleague on the other side): no no-show for the simulation; a real recruiter still has to come.
      if (m.status === 'accepted' && !m.seeker_in_room_at && m.arrive_by) await arrive(m.id, userId, 'seeker');
      if (m.status === 'accepted' && m.accepted_at && now - m.accepted_at.getTime() >= input.interviewMs) {
        await deps.client.workflow.getHandle(matchWorkflowId(m.id)).signal(interviewCompletedSignal, { userId });
        completed++;
        said.push(`${s.name} finished the interview for "${m.job_title}"`);
      }
    }
    return { accepted, completed };
  };

  /** Of the idle simulated seekers, one (by tick) has its agent join a live event's queue. */
  const oneAgentJoins = async (idle: IdleSeeker[], tick: number, said: Said): Promise<number> => {
    const next = idle[tick % Math.max(1, idle.length)];
    if (!next || (await events.findBySlug(next.slug))?.status !== 'live') return 0;
    const r = await deps.agentJoin(next.token, next.slug);
    if (r.status === 200) {
      said.push(`${next.name}'s agent joined the queue of ${next.slug}`);
      return 1;
    }
    log.info('demo: join refused', { status: r.status, code: r.code });
    return 0;
  };

  /** The demo seeker: her agent joins her first queue once, so a real match waits for her. */
  const demoSeekerJoinsOnce = async (tokens: Record<string, { token: string } | undefined>, said: Said) => {
    const ada = await accounts.findUserByEmail(DEMO_SEEKER.email);
    const adaToken = tokens[DEMO_SEEKER.email]?.token;
    if (
      !ada ||
      !adaToken ||
      (await queue.findLatestForUser(ada.id)) ||
      (await matches.listForSeeker(ada.id, 1)).length !== 0
    )
      return 0;
    const slug = DEMO_COMPANIES[0].slug;
    const r = await deps.agentJoin(adaToken, slug);
    if (r.status !== 200) return 0;
    said.push(`${DEMO_SEEKER.name}'s agent joined the queue of ${slug}`);
    return 1;
  };

  return {
    async runDemoSimulationStep(input: DemoSimulationStepInput): Promise<DemoSimulationStepResult> {
      const now = Date.now();
      const said: string[] = [];
      const tokens = deps.tokens.read();
      let accepted = await colleaguesAnswer(input, now, said);
      let completed = 0;

      // Simulated seekers accept their matches and finish their interviews; one joins a queue.
      const idle: IdleSeeker[] = [];
      for (const [i, s] of DEMO_SIMULATED_SEEKERS.entries()) {
        const userId = await idOf(s);
        if (!userId) continue;
        const answered = await seekerAnswers(s, userId, input, now, said);
        accepted += answered.accepted;
        completed += answered.completed;
        const latest = await queue.findLatestForUser(userId);
        const busy = latest && (latest.status === 'waiting' || latest.status === 'matched');
        const token = tokens[s.email]?.token;
        // Each seeker's agent picks the event whose jobs suit it (rotating through the fair).
        if (!busy && token)
          idle.push({ name: s.name, token, slug: DEMO_COMPANIES[(i + input.tick) % DEMO_COMPANIES.length].slug });
      }
      let joined = await oneAgentJoins(idle, input.tick, said);
      joined += await demoSeekerJoinsOnce(tokens, said);
      for (const line of said) log.info(line);
      return { joined, accepted, completed, said };
    },
  };
}
