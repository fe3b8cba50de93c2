/**
 * The few error classes of the service. The API maps them to the envelope
 * `{ error, code, details? }` in one place (apps/api/src/plugins/errors.ts);
 * the worker raises them as non-retryable ApplicationFailures where a business rule refuses.
 */
export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details?: ErrorDetails,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class ValidationError extends AppError {
  /**
   * The validator's own issues beside `details.issues`, one per entry (zod's code and bounds), for
   * the web's message catalogue (apps/api/src/web/messages.ts). Never serialised (not enumerable).
   */
  declare readonly sourceIssues?: ReadonlyArray<Record<string, unknown>>;
  constructor(
    message: string,
    issues: Array<{ path: string; message: string }>,
    sourceIssues?: ReadonlyArray<Record<string, unknown>>,
  ) {
    super(400, 'VALIDATION', message, { issues });
    if (sourceIssues) Object.defineProperty(this, 'sourceIssues', { value: sourceIssues, enumerable: false });
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'A valid bearer token is required') {
    super(401, 'UNAUTHENTICATED', message);
  }
}

export class InsufficientScopeError extends AppError {
  constructor(requiredScope: string) {
    // RFC 6750 §3.1: the challenge names the missing scope, so an OAuth client can ask for it (step-up).
    super(
      403,
      'INSUFFICIENT_SCOPE',
      `This token lacks the scope ${requiredScope}`,
      { required_scope: requiredScope },
      { 'www-authenticate': `Bearer error="insufficient_scope", scope="${requiredScope}"` },
    );
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, code = 'FORBIDDEN') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(entity: string, id?: string) {
    super(404, 'NOT_FOUND', id ? `${entity} ${id} was not found` : `${entity} was not found`);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string, details?: ErrorDetails) {
    super(409, code, message, details);
  }
}

/** One code for "finish onboarding first", wherever it applies (PATCH /profile, queue join). */
export class OnboardingIncompleteError extends AppError {
  constructor(publicBaseUrl: string, action: string) {
    super(409, 'ONBOARDING_INCOMPLETE', `Complete onboarding (your profile) in the web application before ${action}`, {
      onboarding_url: `${publicBaseUrl}/onboarding`,
    });
  }
}

export class DependencyUnavailableError extends AppError {
  constructor(dependency: string, retryAfterSeconds = 5) {
    super(
      503,
      'DEPENDENCY_UNAVAILABLE',
      `${dependency} is unavailable; retry later`,
      { dependency },
      { 'retry-after': String(retryAfterSeconds) },
    );
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, limit: number) {
    super(
      429,
      'RATE_LIMITED',
      `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfterSeconds} s`,
      { retry_after_seconds: retryAfterSeconds },
      { 'retry-after': String(retryAfterSeconds) },
    );
  }
}

/** 402: what the team's plan buys is used up (e.g. live events at once); details name the plan, the limit and where to upgrade. */
export class PlanLimitReachedError extends AppError {
  constructor(details: { plan: string; resource: string; limit: number; upgrade_url: string }) {
    const what = details.resource.replace(/_/g, ' ').replace(/s$/, '');
    super(
      402,
      'PLAN_LIMIT_REACHED',
      `The ${details.plan} plan allows ${details.limit} ${what}${details.limit === 1 ? '' : 's'} ` +
        `at once: end one first, or upgrade the plan on the Billing page (${details.upgrade_url})`,
      details,
    );
  }
}

/** 402 for billing refusals that ask something of the payer (consent, authentication, another card). */
export class PaymentRequiredError extends AppError {
  constructor(code: string, message: string, details?: ErrorDetails) {
    super(402, code, message, details);
  }
}
