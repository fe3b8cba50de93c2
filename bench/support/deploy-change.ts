import {
  patched,
  upsertMemo,
  workflowInfo,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';

/**
 * The "changed workflow" of the chaos run's rolling deploy (decision 0265): bundled as a workflow
 * interceptor into the second build only (`build-dist --bundle-only --workflow-interceptor`), so
 * version 2 of the workers runs code the first never had. The change is real and harmless: the queue
 * entry and match workflows record a memo — new commands in their histories — behind `patched()`,
 * at their start and at the first signal they take on the new code. Running workflows started on
 * version 1 auto-upgrade: their replay takes the old path (no marker in history), their next signal
 * the new one, mid-flight; a history version 1 replayed after that would be non-deterministic,
 * which is what Worker Versioning's switch rules out.
 */
export const DEPLOY_CHANGE_PATCH = 'chaos-rolling-deploy-memo';
export const DEPLOY_CHANGE_MEMO = 'deployedChange';
const CHANGED = new Set(['queueEntryWorkflow', 'matchWorkflow']);

export const interceptors: WorkflowInterceptorsFactory = () => {
  let recorded = false;
  const mark = (where: 'start' | 'signal') => {
    if (recorded || !CHANGED.has(workflowInfo().workflowType)) return;
    if (patched(DEPLOY_CHANGE_PATCH)) {
      recorded = true;
      upsertMemo({ [DEPLOY_CHANGE_MEMO]: where });
    }
  };
  const inbound: WorkflowInboundCallsInterceptor = {
    async execute(input, next) {
      mark('start');
      return next(input);
    },
    async handleSignal(input, next) {
      mark('signal');
      return next(input);
    },
  };
  return { inbound: [inbound] };
};
