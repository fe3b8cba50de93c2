import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { ValidationError } from '#lib/errors';

/**
 * The one pagination helper of every list: `limit` (default 25, max 100 unless a route says
 * lower) and an opaque `cursor`; envelope `{ data, next_cursor?, has_more }`; newest first.
 *
 * Keyset on (created_at, id) descending. The cursor carries the last row's created_at as
 * **microseconds since the epoch as a string** (read with `extract(epoch …) * 1e6` in SQL, not
 * through a JS Date, which would drop the microseconds and cause repeats), plus its id. Rows
 * inserted later sort before the cursor and never appear in later pages; a deleted cursor row
 * does not matter because the next page is "strictly after this (created_at, id)", not "after
 * this row". Cursors are HMAC-signed (tamper-evident) and bound to a fingerprint of the filter:
 * a cursor used with another filter → 400.
 */
export const paginationQuerySchema = (maxLimit = 100) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(25).describe(`Page size, 1–${maxLimit} (default 25)`),
    cursor: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe('Opaque `next_cursor` of the previous page; omit for the first page'),
  });

export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    next_cursor: z.string().optional().describe('Present when has_more is true'),
    has_more: z.boolean(),
  });

interface CursorPayload {
  /** created_at in epoch microseconds, as a decimal string (exact). */
  t: string;
  id: string;
  /** Filter fingerprint. */
  f: string;
}

export interface Page<Row> {
  data: Row[];
  next_cursor?: string;
  has_more: boolean;
}

/** The same page with every row shaped for the response; next_cursor and has_more pass through. */
export const mapPage = <Row, Out>(page: Page<Row>, shape: (row: Row) => Out): Page<Out> => ({
  ...page,
  data: page.data.map(shape),
});

function b64url(buf: Buffer): string {
  return buf.toString('base64url');
}

export function createPaginator(secret: string) {
  const sign = (body: string) => createHmac('sha256', secret).update(`cursor:${body}`).digest().subarray(0, 16);
  const fingerprint = (filter: unknown) =>
    createHmac('sha256', secret)
      .update(JSON.stringify(filter ?? null))
      .digest('base64url')
      .slice(0, 12);

  const encode = (p: CursorPayload) => {
    const body = b64url(Buffer.from(JSON.stringify(p)));
    return `${body}.${b64url(sign(body))}`;
  };
  const decode = (cursor: string, filter: unknown): CursorPayload => {
    const bad = (message: string) => new ValidationError(message, [{ path: 'query.cursor', message }]);
    const [body, mac] = cursor.split('.');
    if (!body || !mac) throw bad('cursor is malformed; use next_cursor exactly as returned');
    const expected = sign(body);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw bad('cursor is invalid or was altered; use next_cursor exactly as returned');
    let p: CursorPayload;
    try {
      p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw bad('cursor is malformed');
    }
    if (!/^\d+$/.test(p.t) || typeof p.id !== 'string') throw bad('cursor is malformed');
    if (p.f !== fingerprint(filter)) throw bad('cursor belongs to a different filter; restart from the first page');
    return p;
  };

  return {
    /**
     * Runs `query` (already filtered to what the caller may see) newest first, one page.
     * `table` qualifies the columns when the query joins; `timeColumn` names the keyset's
     * timestamp column (default `created_at`; it must never change once the row exists, and
     * (timeColumn, id) should be indexed). When the query selects no columns, `table.*` is selected.
     * `filter` is every input that shapes the result set other than limit and cursor (include
     * the list's name when two lists could share a filter shape).
     */
    async page<Row extends { id: string }>(
      query: Knex.QueryBuilder,
      opts: { limit: number; cursor?: string; filter: unknown; table?: string; timeColumn?: string },
    ): Promise<Page<Row>> {
      const col = (c: string) => (opts.table ? `${opts.table}.${c}` : c);
      const timeCol = col(opts.timeColumn ?? 'created_at');
      const q = query.clone();
      const statements = (q as unknown as { _statements?: Array<{ grouping?: string }> })._statements ?? [];
      if (!statements.some((st) => st.grouping === 'columns')) q.select(opts.table ? `${opts.table}.*` : '*');
      if (opts.cursor) {
        const c = decode(opts.cursor, opts.filter);
        // Exact microseconds back to a timestamptz (bigint → float8 is exact below 2^53 µs, i.e. until
        // year 2255), compared as a row value so an index on (timeColumn, id) serves it.
        q.whereRaw(`(${timeCol}, ${col('id')}) < (timestamptz 'epoch' + ?::bigint * interval '1 microsecond', ?)`, [
          c.t,
          c.id,
        ]);
      }
      const micros = q.client.raw(`(extract(epoch from ${timeCol}) * 1000000)::bigint::text as __cursor_t`);
      const rows = (await q
        .select(micros)
        .orderBy([
          { column: timeCol, order: 'desc' },
          { column: col('id'), order: 'desc' },
        ])
        .limit(opts.limit + 1)) as Array<Row & { __cursor_t: string }>;
      const has_more = rows.length > opts.limit;
      const pageRows = rows.slice(0, opts.limit);
      const last = pageRows[pageRows.length - 1];
      const data = pageRows.map(({ __cursor_t: _drop, ...r }) => r as unknown as Row);
      return has_more && last
        ? { data, has_more, next_cursor: encode({ t: last.__cursor_t, id: last.id, f: fingerprint(opts.filter) }) }
        : { data, has_more };
    },
  };
}
export type Paginator = ReturnType<typeof createPaginator>;
