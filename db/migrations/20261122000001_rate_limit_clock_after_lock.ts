import type { Knex } from 'knex';

/**
 * `rate_limit_take` read the clock before it waited for the bucket's row lock, so under
 * concurrency a request that got the lock later could decide (and report X-RateLimit-Remaining)
 * with an older "now" than the request before it: two answers showed the same remaining count
 * (caught by test/platform/rate-limit.test.ts under load). Now the clock is read once the row is
 * locked, so the decisions on one bucket follow the lock order. A new bucket starts at TAT 0,
 * which GREATEST(tat, now) turns into "now", as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION rate_limit_take(p_bucket text, p_interval_ms bigint, p_period_ms bigint)
    RETURNS TABLE (allowed boolean, tat_ms bigint, now_ms bigint) LANGUAGE plpgsql AS $$
    DECLARE
      v_now bigint;
      v_tat bigint;
      v_new bigint;
    BEGIN
      INSERT INTO rate_limit_buckets AS b (bucket, tat_ms) VALUES (p_bucket, 0)
        ON CONFLICT (bucket) DO UPDATE SET bucket = b.bucket
        RETURNING b.tat_ms INTO v_tat;
      -- The row is locked now: read the clock after waiting for it.
      v_now := (extract(epoch from clock_timestamp()) * 1000)::bigint;
      v_new := GREATEST(v_tat, v_now) + p_interval_ms;
      IF v_new - v_now <= p_period_ms THEN
        UPDATE rate_limit_buckets SET tat_ms = v_new, updated_at = now() WHERE bucket = p_bucket;
        RETURN QUERY SELECT true, v_new, v_now;
      ELSE
        RETURN QUERY SELECT false, GREATEST(v_tat, v_now), v_now;
      END IF;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION rate_limit_take(p_bucket text, p_interval_ms bigint, p_period_ms bigint)
    RETURNS TABLE (allowed boolean, tat_ms bigint, now_ms bigint) LANGUAGE plpgsql AS $$
    DECLARE
      v_now bigint := (extract(epoch from clock_timestamp()) * 1000)::bigint;
      v_tat bigint;
      v_new bigint;
    BEGIN
      INSERT INTO rate_limit_buckets AS b (bucket, tat_ms) VALUES (p_bucket, v_now)
        ON CONFLICT (bucket) DO UPDATE SET bucket = b.bucket
        RETURNING b.tat_ms INTO v_tat;
      v_new := GREATEST(v_tat, v_now) + p_interval_ms;
      IF v_new - v_now <= p_period_ms THEN
        UPDATE rate_limit_buckets SET tat_ms = v_new, updated_at = now() WHERE bucket = p_bucket;
        RETURN QUERY SELECT true, v_new, v_now;
      ELSE
        RETURN QUERY SELECT false, GREATEST(v_tat, v_now), v_now;
      END IF;
    END $$`);
}
