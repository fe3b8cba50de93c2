import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import type { Config } from '../../../lib/config';
import { createQueueRepository } from '../../../db/repositories/queue-repository';
import { createQueueActivities } from '../../../activities/queue/queue-activities';
import { createDomainEventsActivities, type FanOut } from '../../../activities/domain-events/domain-events-activities';

export interface WorkerDeps {
  config: Config;
  knex: Knex;
  /** For activities that message other workflows (matchmaker offers, event fan-out). */
  client: Client;
}

/** The only place real dependencies are built for activities; one line per capability. */
export function buildActivities(deps: WorkerDeps) {
  // Until webhook subscriptions exist, emitted events are only recorded.
  const fanOut: FanOut = async () => undefined;
  return {
    ...createDomainEventsActivities({ knex: deps.knex, fanOut }),
    ...createQueueActivities({ queueRepository: createQueueRepository(deps.knex) }),
  };
}
