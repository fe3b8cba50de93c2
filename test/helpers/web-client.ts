import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A cookie-keeping form client over `app.inject`: what a browser without JavaScript would do. */
export class WebClient {
  cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
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

  async get(url: string, headers: Record<string, string> = {}) {
    const res = await this.app.inject({
      method: 'GET',
      url,
      headers: { ...this.headers, cookie: this.cookieHeader(), ...headers },
    });
    this.store(res);
    return res;
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
    opts: { csrf?: string | null; headers?: Record<string, string> } = {},
  ) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) params.append(k, x);
    if (opts.csrf) params.append('_csrf', opts.csrf);
    const res = await this.app.inject({
      method: 'POST',
      url,
      payload: params.toString(),
      headers: {
        ...this.headers,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
        ...(opts.headers ?? {}),
      },
    });
    this.store(res);
    return res;
  }

  /** GET the page, then POST the form with the page's CSRF token. */
  async submit(
    pageUrl: string,
    action: string,
    form: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ) {
    const page = await this.get(pageUrl);
    return this.post(action, form, { csrf: WebClient.csrfOf(page.body), headers });
  }
}
