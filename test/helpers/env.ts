export const TEMPLATE_DB = 'jobfair_test_template';

/** Set only by dev/test.ts: the harness refuses to create or drop databases without them. */
export function testEnv() {
  const adminDbUrl = process.env.JOBFAIR_TEST_ADMIN_DB_URL;
  const temporalAddress = process.env.JOBFAIR_TEST_TEMPORAL_ADDRESS;
  const workflowBundle = process.env.JOBFAIR_TEST_WORKFLOW_BUNDLE;
  if (!adminDbUrl || !temporalAddress || !workflowBundle) {
    throw new Error(
      'Run the tests with `npm test` (dev/test.ts starts isolated PostgreSQL and Temporal and sets JOBFAIR_TEST_*)',
    );
  }
  return { adminDbUrl, temporalAddress, workflowBundle };
}

/** stripe-mock started by dev/test.ts (http://127.0.0.1:<port>). */
export function stripeMockUrl(): string {
  const url = process.env.JOBFAIR_TEST_STRIPE_MOCK_URL;
  if (!url)
    throw new Error(
      'Run the tests with `npm test` (dev/test.ts starts stripe-mock and sets JOBFAIR_TEST_STRIPE_MOCK_URL)',
    );
  return url;
}
