import { z } from 'zod';

/** The error envelope of every non-2xx response. */
export const errorEnvelopeSchema = z
  .object({
    error: z.string().describe('Human-readable message'),
    code: z.string().describe('Stable machine-readable identifier; branch on this'),
    details: z.record(z.string(), z.unknown()).optional().describe('Shape depends on the code'),
  })
  .meta({ id: 'Error' });

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const isoDateTime = z.iso.datetime({ offset: true });
