/**
 * A UUID in canonical text form (any version, either case). Repositories test ids with it before
 * querying a uuid column (PostgreSQL rejects anything else), and pages answer 404 for other shapes.
 */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
