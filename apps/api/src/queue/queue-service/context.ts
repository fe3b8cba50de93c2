import type { ServiceDeps } from '../../plugins/service-deps';
import type { MatchesService } from '../../matches/matches-service';
import type { EntryView } from './entry-view';

/** What the queue service is built from. */
export type QueueServiceDeps = Pick<ServiceDeps, 'repos' | 'temporal' | 'config'> & {
  matches: Pick<MatchesService, 'decline'>;
};

/** What every use-case of the queue service shares: its dependencies and the entry's view. */
export interface QueueServiceContext {
  deps: QueueServiceDeps;
  view: EntryView;
}

/** What the caller's entry refusal details carry (queue-entry.ts validators). */
export interface EntryRefusalDetails {
  queueId?: string;
  liveEventSlug?: string | null;
  status?: string;
  matchId?: string | null;
}
