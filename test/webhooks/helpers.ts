import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedRequest {
  n: number;
  at: number;
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  json: { id: string; type: string; created_at: number; data: Record<string, unknown> };
}

export type Responder = (req: ReceivedRequest) => {
  status: number;
  body?: string;
  delayMs?: number;
  headers?: Record<string, string>;
};

/** A real HTTP receiver on 127.0.0.1 (the only address tests send webhooks to). */
export async function startReceiver(responder: Responder = () => ({ status: 200, body: 'ok' })) {
  const received: ReceivedRequest[] = [];
  let respond = responder;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let json: ReceivedRequest['json'];
      try {
        json = JSON.parse(rawBody);
      } catch {
        json = { id: '', type: '', created_at: 0, data: {} };
      }
      const r: ReceivedRequest = {
        n: received.length + 1,
        at: Date.now(),
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawBody,
        json,
      };
      received.push(r);
      const out = respond(r);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(out.status, { 'content-type': 'text/plain', ...(out.headers ?? {}) });
        res.end(out.body ?? '');
      };
      if (out.delayMs) setTimeout(send, out.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    forEvent: (eventId: string) => received.filter((r) => r.json.id === eventId),
    setResponder: (r: Responder) => {
      respond = r;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server (smtp-server) on 127.0.0.1 that keeps every message it receives. */
export async function startSmtp() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
