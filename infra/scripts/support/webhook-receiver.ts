import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { allowLoopbackPort } from '../../local/loopback.ts';

export interface ReceivedEvent {
  headers: IncomingHttpHeaders;
  body: string;
  /** The event, if its signature verified with the receiver's secret. */
  event?: { type: string; timestamp: string; data: Record<string, any> };
  verified: boolean;
  answeredWith: number | 'timeout';
}

/**
 * A webhook receiver on 127.0.0.1 that verifies Standard Webhooks signatures the way a caller would.
 * `respond(n)` decides the answer to the n-th request (1-based): a status, or 'hang' to never answer.
 */
export async function startWebhookReceiver(
  secret: string,
  respond: (n: number) => number | 'hang' = () => 204,
  options: { onEvent?: (event: NonNullable<ReceivedEvent['event']>) => void } = {},
) {
  const received: ReceivedEvent[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const webhook = new Webhook(secret);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = respond(received.length + 1);
      let event: ReceivedEvent['event'];
      try {
        event = webhook.verify(body, req.headers as Record<string, string>) as ReceivedEvent['event'];
      } catch {
        event = undefined;
      }
      received.push({ headers: req.headers, body, event, verified: !!event, answeredWith: answer === 'hang' ? 'timeout' : answer });
      if (event) options.onEvent?.(event);
      for (const w of waiters.filter((w) => received.filter((r) => r.answeredWith !== 'timeout' && r.answeredWith < 300).length >= w.count))
        w.resolve();
      if (answer === 'hang') return; // never answers: the sender's timeout fires
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A test's or the demo's own server: the local runtime's functions may reach it.
  allowLoopbackPort((server.address() as AddressInfo).port);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/vidbot`,
    received,
    /** Events that were answered with a 2xx. */
    delivered: () => received.filter((r) => typeof r.answeredWith === 'number' && r.answeredWith < 300),
    /** Resolves once `count` events have been accepted (2xx), or rejects after `timeoutMs`. */
    waitForDelivered(count: number, timeoutMs: number) {
      if (received.filter((r) => typeof r.answeredWith === 'number' && r.answeredWith < 300).length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${received.length} webhook requests (${count} deliveries expected) within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
