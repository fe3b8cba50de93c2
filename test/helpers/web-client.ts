import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sendWithRetry, withIdempotencyKey, type ClientRetryOptions } from './client-retry';

/**
 * A cookie-keeping form client over `app.inject`: what a browser without JavaScript would do, and
 * what a person does with "try again in a moment": a 503 or 429 is sent again after its
 * Retry-After (test/helpers/client-retry.ts), unless the client or the call says `retry: false`.
 */
export class WebClient {
  cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
    private readonly retry: ClientRetryOptions = {},
  ) {
    // A browser asks for the canonical host (PUBLIC_BASE_URL); any other host is redirected there.
    this.headers = { host: new URL(app.config.publicBaseUrl).host, ...headers };
  }

  private store(res: LightMyRequestResponse) {
    const set = res.headers['set-cookie'];
    for (const c of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = decodeURIComponent(pair.slice(i + 1).trim());
      if (attrs.some((a) => /max-age=0/i.test(a.trim())) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  }

  /** One request, re-sent (same headers, same Idempotency-Key) while it answers 503/429. */
  private async send(opts: InjectOptions, retry: ClientRetryOptions) {
    const o: ClientRetryOptions = {
      retry: retry.retry ?? this.retry.retry,
      idempotencyKey: retry.idempotencyKey ?? this.retry.idempotencyKey,
    };
    const headers = withIdempotencyKey(opts.method, opts.headers ?? {}, o) as InjectOptions['headers'];
    const res = await sendWithRetry(() => this.app.inject({ ...opts, headers }), o);
    this.store(res);
    return res;
  }

  async get(url: string, headers: Record<string, string> = {}, retry: ClientRetryOptions = {}) {
    return this.send(
      { method: 'GET', url, headers: { ...this.headers, cookie: this.cookieHeader(), ...headers } },
      retry,
    );
  }

  /** The CSRF token the last page embedded. */
  static csrfOf(body: string): string {
    const m = /name="csrf-token" content="([^"]+)"/.exec(body) ?? /name="_csrf" value="([^"]+)"/.exec(body);
    if (!m) throw new Error('no CSRF token on the page');
    return m[1];
  }

  async post(
    url: string,
    form: Record<string, string | string[]>,
    opts: { csrf?: string | null; headers?: Record<string, string> } & ClientRetryOptions = {},
  ) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) params.append(k, x);
    if (opts.csrf) params.append('_csrf', opts.csrf);
    return this.send(
      {
        method: 'POST',
        url,
        payload: params.toString(),
        headers: {
          ...this.headers,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: this.cookieHeader(),
          ...(opts.headers ?? {}),
        },
      },
      { retry: opts.retry, idempotencyKey: opts.idempotencyKey },
    );
  }

  /** GET the page, then POST the form with the page's CSRF token. */
  async submit(
    pageUrl: string,
    action: string,
    form: Record<string, string | string[]>,
    headers: Record<string, string> = {},
    retry: ClientRetryOptions = {},
  ) {
    const page = await this.get(pageUrl);
    return this.post(action, form, { csrf: WebClient.csrfOf(page.body), headers, ...retry });
  }
}
