import type { Client } from '@temporalio/client';
import { JobfairEntity, JobfairStatus, JobfairTeamId } from '../shared/contract';
import {
  billingAccountStartMetadata,
  billingAccountWorkflowId,
  billingEventSignal,
  BILLING_ACCOUNT_WORKFLOW,
  type BillingAccountInput,
  type BillingAccountWorkflow,
  type BillingEventSignalInput,
} from './contract';
import type { Config } from '../../lib/config';

export function billingAccountInput(
  config: Pick<
    Config,
    'BILLING_PERIOD_MONTH_MS' | 'BILLING_PERIOD_YEAR_MS' | 'BILLING_DUNNING_SCHEDULE_MS' | 'BILLING_CURRENCY'
  >,
  teamId: string,
): BillingAccountInput {
  return {
    teamId,
    periodMs: { month: config.BILLING_PERIOD_MONTH_MS, year: config.BILLING_PERIOD_YEAR_MS },
    dunningScheduleMs: [...config.BILLING_DUNNING_SCHEDULE_MS],
    currency: config.BILLING_CURRENCY,
  };
}

/** Start options of `billing-account:<teamId>` (update-with-start and signal-with-start both use them); the team's name is for the Temporal UI. */
export function billingAccountStartOptions(
  config: Pick<
    Config,
    | 'TEMPORAL_TASK_QUEUE'
    | 'BILLING_PERIOD_MONTH_MS'
    | 'BILLING_PERIOD_YEAR_MS'
    | 'BILLING_DUNNING_SCHEDULE_MS'
    | 'BILLING_CURRENCY'
  >,
  teamId: string,
  teamName: string | null = null,
) {
  return {
    workflowId: billingAccountWorkflowId(teamId),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [billingAccountInput(config, teamId)] as [BillingAccountInput],
    ...billingAccountStartMetadata(teamId, teamName),
    typedSearchAttributes: [
      { key: JobfairEntity, value: 'billing_account' },
      { key: JobfairStatus, value: 'active' },
      { key: JobfairTeamId, value: teamId },
    ],
  };
}

/** Delivers a provider event to the team's actor, starting it when it is not running (the actor deduplicates by event id). */
export async function signalBillingEvent(
  client: Client,
  config: Parameters<typeof billingAccountStartOptions>[0],
  teamId: string,
  event: BillingEventSignalInput,
  teamName: string | null = null,
): Promise<void> {
  await client.workflow.signalWithStart<BillingAccountWorkflow, [BillingEventSignalInput]>(BILLING_ACCOUNT_WORKFLOW, {
    ...billingAccountStartOptions(config, teamId, teamName),
    signal: billingEventSignal,
    signalArgs: [event],
  });
}
