export interface Drift {
  kind: 'match' | 'queue_entry' | 'live_event' | 'webhook_subscription';
  id: string;
  field: string;
  projection: unknown;
  workflow: unknown;
  fixed?: boolean;
}

/** One drift in words (the CLI's line). */
export function describeDrift(d: Drift): string {
  if (d.field === 'workflow')
    return (
      `${d.kind} ${d.id}: PostgreSQL says ${JSON.stringify(d.projection)}, but no workflow runs ` +
      `for it${d.fixed ? ' — started from the row' : ''}`
    );
  if (d.field === 'row')
    return `${d.kind} ${d.id}: its workflow runs, but PostgreSQL has no row${d.fixed ? ' — workflow ended (delete)' : ''}`;
  return (
    `${d.kind} ${d.id}: ${d.field} is ${JSON.stringify(d.projection)} in PostgreSQL, ` +
    `${JSON.stringify(d.workflow)} in the workflow${d.fixed ? ' — re-projected' : ''}`
  );
}
