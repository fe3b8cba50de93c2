import type { Knex } from 'knex';

/**
 * Budget leases for the token rate limiter (decision 0230): an API process takes several cells
 * of a GCRA bucket in one statement and serves the next requests from them without a round trip.
 *
 * `rate_limit_lease(bucket, T, horizon, max_cells, give_back)`, under the bucket's row lock, on
 * the database clock read after the lock (as `rate_limit_take`, 20261122000001):
 * 1. gives back `give_back` unused cells of the caller's previous lease: tat −= give_back·T,
 *    never below now (a bucket whose TAT has passed is full; it cannot be made fuller);
 * 2. counts the cells the bucket still holds, `avail = floor((now + horizon − max(tat, now)) / T)`;
 *    none → refused (granted 0), TAT returned for the headers;
 * 3. grants `least(max_cells, greatest(1, avail / 4))` — a quarter of what is left, so a nearly
 *    empty bucket or a small class limit (cost-bearing 3/min) leases one cell at a time, exactly
 *    like `rate_limit_take` — and advances tat by granted·T.
 * With max_cells = 1 and give_back = 0 it decides exactly as `rate_limit_take`.
 *
 * `rate_limit_return(buckets[], cells[], intervals[])` gives back expired leases' unused cells in
 * one statement (the API's sweep and shutdown).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION rate_limit_lease(p_bucket text, p_interval_ms bigint, p_horizon_ms bigint, p_max_cells bigint, p_give_back bigint)
    RETURNS TABLE (granted bigint, tat_ms bigint, now_ms bigint) LANGUAGE plpgsql AS $$
    DECLARE
      v_now bigint;
      v_tat bigint;
      v_base bigint;
      v_avail bigint;
      v_grant bigint;
    BEGIN
      INSERT INTO rate_limit_buckets AS b (bucket, tat_ms) VALUES (p_bucket, 0)
        ON CONFLICT (bucket) DO UPDATE SET bucket = b.bucket
        RETURNING b.tat_ms INTO v_tat;
      -- The row is locked now: read the clock after waiting for it.
      v_now := (extract(epoch from clock_timestamp()) * 1000)::bigint;
      IF p_give_back > 0 THEN
        v_tat := GREATEST(v_tat - p_give_back * p_interval_ms, v_now);
      END IF;
      v_base := GREATEST(v_tat, v_now);
      v_avail := GREATEST(0, floor((v_now + p_horizon_ms - v_base)::numeric / p_interval_ms)::bigint);
      IF v_avail < 1 THEN
        IF p_give_back > 0 THEN
          UPDATE rate_limit_buckets SET tat_ms = v_base, updated_at = now() WHERE bucket = p_bucket;
        END IF;
        RETURN QUERY SELECT 0::bigint, v_base, v_now;
        RETURN;
      END IF;
      v_grant := LEAST(p_max_cells, GREATEST(1, v_avail / 4));
      UPDATE rate_limit_buckets SET tat_ms = v_base + v_grant * p_interval_ms, updated_at = now() WHERE bucket = p_bucket;
      RETURN QUERY SELECT v_grant, v_base + v_grant * p_interval_ms, v_now;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION rate_limit_return(p_buckets text[], p_cells bigint[], p_interval_ms bigint[])
    RETURNS void LANGUAGE sql AS $$
      UPDATE rate_limit_buckets b
         SET tat_ms = GREATEST(b.tat_ms - r.cells * r.interval_ms, (extract(epoch from clock_timestamp()) * 1000)::bigint),
             updated_at = now()
        FROM unnest(p_buckets, p_cells, p_interval_ms) AS r(bucket, cells, interval_ms)
       WHERE b.bucket = r.bucket AND r.cells > 0
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS rate_limit_return(text[], bigint[], bigint[])');
  await knex.raw('DROP FUNCTION IF EXISTS rate_limit_lease(text, bigint, bigint, bigint, bigint)');
}
