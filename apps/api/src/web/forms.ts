import type { z } from 'zod';
import { ValidationError } from '#lib/errors';

const issuesOf = (error: z.ZodError) =>
  error.issues.map((i) => ({ path: i.path.map(String).join('.') || 'form', message: i.message }));

/** A form's fields (or any input) through its zod schema: the data, or a VALIDATION error that names each field. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  message = 'Please correct the highlighted fields',
): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success)
    throw new ValidationError(
      message,
      issuesOf(r.error),
      r.error.issues as unknown as ReadonlyArray<Record<string, unknown>>,
    );
  return r.data;
}
