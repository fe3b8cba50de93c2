import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { checkTargetUrl, refusalReason, type AddressPolicy } from './address-policy';

/**
 * The only way the service sends requests to URLs that others name (webhook deliveries, OAuth
 * client metadata documents); no capability owns it. SSRF guard at connect time: the host name is
 * resolved by our own `lookup` (used by the agent for every new connection), and the connection
 * is refused when any resolved address is outside the policy — so a name that re-binds to a
 * private address after the create-time check is still refused. IP literals are checked before
 * the request (Node does not call `lookup` for them). Redirects are never followed; the
 * response body is read up to a small cap. Loopback is let through only with
 * OUTBOUND_HTTP_ALLOW_LOOPBACK (formerly WEBHOOK_ALLOW_LOOPBACK), for development and tests.
 */
export type OutboundErrorKind =
  | 'blocked_address'
  | 'invalid_target'
  | 'dns_error'
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'tls_error'
  | 'network_error'
  | 'redirect_not_followed'
  | 'http_error';

export interface OutboundPostResult {
  ok: boolean;
  httpStatus: number | null;
  errorKind: OutboundErrorKind | null;
  /** Short human-readable detail (never contains secrets or signatures). */
  errorMessage: string | null;
  latencyMs: number;
  /** The first bytes of the response body as text (at most SNIPPET_CHARS characters). */
  responseSnippet: string | null;
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const RESPONSE_BODY_CAP_BYTES = 4096;
export const SNIPPET_CHARS = 256;

const defaultResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export class BlockedAddressError extends Error {
  readonly code = 'ERR_OUTBOUND_BLOCKED_ADDRESS';
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** A `net` lookup function that resolves, then refuses the whole name if any address is outside the policy. */
export function createSafeLookup(policy: AddressPolicy, resolve: Resolver = defaultResolver): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (all) => {
        const wanted =
          options?.family === 4 || options?.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' }));
          return;
        }
        for (const a of all) {
          const reason = refusalReason(a.address, policy);
          if (reason) {
            callback(new BlockedAddressError(`${hostname} resolves to ${reason}`));
            return;
          }
        }
        if (options?.all) callback(null, wanted);
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (err) => callback(err),
    );
  }) as LookupFunction;
}

function classifyError(err: NodeJS.ErrnoException): { kind: OutboundErrorKind; message: string } {
  if (err instanceof BlockedAddressError || err.code === 'ERR_OUTBOUND_BLOCKED_ADDRESS')
    return { kind: 'blocked_address', message: err.message };
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'ENODATA')
    return { kind: 'dns_error', message: `DNS lookup failed (${err.code})` };
  if (err.code === 'ECONNREFUSED') return { kind: 'connection_refused', message: 'connection refused' };
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'ERR_STREAM_PREMATURE_CLOSE')
    return { kind: 'connection_reset', message: 'connection reset' };
  if (err.code === 'ETIMEDOUT' || err.code === 'ERR_OUTBOUND_TIMEOUT') return { kind: 'timeout', message: err.message };
  if (
    typeof err.code === 'string' &&
    (err.code.startsWith('ERR_TLS') ||
      err.code.includes('CERT') ||
      err.code.startsWith('ERR_SSL') ||
      err.code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
  ) {
    return { kind: 'tls_error', message: `TLS error (${err.code})` };
  }
  return { kind: 'network_error', message: err.code ? `network error (${err.code})` : 'network error' };
}

export interface OutboundHttpClient {
  post(target: string, body: string, headers: Record<string, string>): Promise<OutboundPostResult>;
  close(): void;
}

export function createOutboundHttpClient(opts: {
  policy: AddressPolicy;
  timeoutMs: number;
  resolve?: Resolver;
  maxSockets?: number;
}): OutboundHttpClient {
  const lookup = createSafeLookup(opts.policy, opts.resolve);
  const agentOpts = { keepAlive: true, maxSockets: opts.maxSockets ?? 64, lookup };
  const httpsAgent = new https.Agent(agentOpts);
  const httpAgent = new http.Agent(agentOpts);

  return {
    post(target, body, headers) {
      const started = process.hrtime.bigint();
      const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
      const fail = (
        kind: OutboundErrorKind,
        message: string,
        httpStatus: number | null = null,
      ): OutboundPostResult => ({
        ok: false,
        httpStatus,
        errorKind: kind,
        errorMessage: message,
        latencyMs: elapsed(),
        responseSnippet: null,
      });
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return Promise.resolve(fail('invalid_target', 'target_url is not a valid URL'));
      }
      const isHttps = url.protocol === 'https:';
      if (!isHttps && !(url.protocol === 'http:' && opts.policy.allowLoopback))
        return Promise.resolve(fail('invalid_target', `${url.protocol} targets are not allowed`));
      const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      if (isIP(literal)) {
        const reason = refusalReason(literal, opts.policy);
        if (reason) return Promise.resolve(fail('blocked_address', `target is ${reason}`));
      }
      if (!isHttps) {
        // http: only ever to loopback (development flag): the lookup enforces it for names too.
        const name = literal.toLowerCase();
        if (!isIP(literal) && name !== 'localhost' && !name.endsWith('.localhost'))
          return Promise.resolve(fail('invalid_target', 'http: targets must be loopback hosts'));
      }
      const payload = Buffer.from(body, 'utf8');

      return new Promise<OutboundPostResult>((resolve) => {
        let settled = false;
        const finish = (r: OutboundPostResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(r);
        };
        const req = (isHttps ? https : http).request(url, {
          method: 'POST',
          agent: isHttps ? httpsAgent : httpAgent,
          lookup,
          headers: { ...headers, 'content-length': String(payload.length) },
        });
        // Set once the status line has arrived: a slow body after a timely status still counts.
        let finishWithResponse: (() => void) | null = null;
        const timer = setTimeout(() => {
          if (finishWithResponse) finishWithResponse();
          else finish(fail('timeout', `no response within ${opts.timeoutMs} ms`));
          req.destroy(Object.assign(new Error('timeout'), { code: 'ERR_OUTBOUND_TIMEOUT' }));
        }, opts.timeoutMs);
        req.on('error', (err: NodeJS.ErrnoException) => {
          const c = classifyError(err);
          finish(fail(c.kind, c.message));
        });
        req.on('response', (res) => {
          const status = res.statusCode ?? 0;
          const latencyMs = elapsed();
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            const text = Buffer.concat(chunks).toString('utf8').slice(0, SNIPPET_CHARS);
            const ok = status >= 200 && status < 300;
            const errorKind: OutboundErrorKind | null = ok
              ? null
              : status >= 300 && status < 400
                ? 'redirect_not_followed'
                : 'http_error';
            finish({
              ok,
              httpStatus: status,
              errorKind,
              errorMessage: ok
                ? null
                : errorKind === 'redirect_not_followed'
                  ? `HTTP ${status} (redirects are not followed)`
                  : `HTTP ${status}`,
              latencyMs,
              responseSnippet: text.length > 0 ? text : null,
            });
          };
          finishWithResponse = done;
          res.on('data', (chunk: Buffer) => {
            if (size >= RESPONSE_BODY_CAP_BYTES) return;
            chunks.push(chunk.subarray(0, RESPONSE_BODY_CAP_BYTES - size));
            size += chunk.length;
            if (size >= RESPONSE_BODY_CAP_BYTES) {
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
        });
        req.end(payload);
      });
    },
    close() {
      httpsAgent.destroy();
      httpAgent.destroy();
    },
  };
}

export type SafeGetResult =
  | { ok: true; httpStatus: number; contentType: string | null; body: string }
  | { ok: false; httpStatus: number | null; errorKind: OutboundErrorKind | 'too_large'; errorMessage: string };

/**
 * One GET under the same SSRF guard as the POSTs (the static URL check, then the policy at
 * every connect; no redirects; `https:` only, or `http:` to loopback when the policy allows it),
 * reading at most `maxBytes` of body. For documents the service fetches from URLs that others
 * name, such as an OAuth client's metadata document.
 */
export function safeGet(
  target: string,
  opts: {
    policy: AddressPolicy;
    timeoutMs: number;
    maxBytes: number;
    headers?: Record<string, string>;
    resolve?: Resolver;
  },
): Promise<SafeGetResult> {
  const fail = (
    kind: OutboundErrorKind | 'too_large',
    message: string,
    httpStatus: number | null = null,
  ): SafeGetResult => ({
    ok: false,
    httpStatus,
    errorKind: kind,
    errorMessage: message,
  });
  const checked = checkTargetUrl(target, opts.policy);
  if (!checked.ok) return Promise.resolve(fail('invalid_target', checked.message.replace(/^target_url/, 'the URL')));
  const url = checked.url;
  const lookup = createSafeLookup(opts.policy, opts.resolve);
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(literal)) {
    const reason = refusalReason(literal, opts.policy);
    if (reason) return Promise.resolve(fail('blocked_address', `target is ${reason}`));
  }
  return new Promise<SafeGetResult>((resolve) => {
    let settled = false;
    const finish = (r: SafeGetResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'GET',
      agent: false,
      lookup,
      headers: { accept: 'application/json', ...opts.headers },
    });
    const timer = setTimeout(() => {
      finish(fail('timeout', `no response within ${opts.timeoutMs} ms`));
      req.destroy(Object.assign(new Error('timeout'), { code: 'ERR_OUTBOUND_TIMEOUT' }));
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const c = classifyError(err);
      finish(fail(c.kind, c.message));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        res.resume();
        finish(
          status >= 300 && status < 400
            ? fail('redirect_not_followed', `HTTP ${status} (redirects are not followed)`, status)
            : fail('http_error', `HTTP ${status}`, status),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBytes) {
          finish(fail('too_large', `the body is larger than ${opts.maxBytes} bytes`, status));
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () =>
        finish({
          ok: true,
          httpStatus: status,
          contentType: typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : null,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', (err: NodeJS.ErrnoException) =>
        finish(fail(classifyError(err).kind, classifyError(err).message)),
      );
    });
    req.end();
  });
}
