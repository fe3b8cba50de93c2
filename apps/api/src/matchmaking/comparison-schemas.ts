import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';

export const jobComparisonSchema = z
  .object({
    job_id: z.uuid(),
    provider: z
      .enum(['builtin', 'openai_compatible'])
      .describe(
        '`builtin`: words from the explainable scorer; `openai_compatible`: a chat model answered ' +
          'within a strict JSON schema',
      ),
    model: z.string().nullable().describe('The model asked; null for builtin'),
    match_score: z
      .number()
      .min(0)
      .max(100)
      .describe('The explainable score (docs/match-score.md), computed by the service either way'),
    score_version: z.string(),
    summary: z.string(),
    strengths: z.array(z.string()),
    gaps: z.array(z.string()),
    talking_points: z.array(z.string()).describe('What to raise in the interview'),
    generated_at: isoDateTime,
  })
  .meta({ id: 'JobComparison' });
