/** Moved to dev/ (the cluster of `npm run cluster` runs the same server); re-exported for the benches. */
export * from '#dev/temporal-postgres';
