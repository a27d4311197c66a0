/**
 * The local gateway in front of everything: a request without a key, or to no route, costs it no body reading;
 * a route without a key takes a small body only; and no query string (where a key may be pasted) reaches its log.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '#infra/local/log.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

let app: TestRuntime;
const logged: string[] = [];
beforeAll(async () => {
  app = await startTestRuntime({ log: createLog('info', (line) => logged.push(line)) });
}, 120_000);
afterAll(() => app?.stop());

/**
 * Sends the request line and headers with a huge Content-Length, then the body a little at a time: the answer must
 * come while almost none of it was sent (the gateway did not wait to read it), and the connection is then closed.
 */
function answerBeforeBody(path: string, headers: Record<string, string>): Promise<{ status: number; sentBytes: number; closed: boolean }> {
  const { port } = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let sent = 0;
    let reply = '';
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    // The body starts a moment after the headers: a gateway that answers on the headers has answered by then, so
    // the answer is read before a write can meet the closed connection (EPIPE, which would drop the answer unread).
    // One that waits for the body never answers at all: 100 MB never come.
    let pumping = false;
    const startPump = setTimeout(() => (pumping = true), 250);
    const pump = setInterval(() => {
      if (!pumping || !socket.writable || sent >= 8 * 1024 * 1024) return;
      try {
        socket.write(chunk, (error) => {
          if (!error) sent += chunk.length;
        });
      } catch {
        // The gateway closed the connection: the answer is in, the rest is never sent.
      }
    }, 20);
    const give = setTimeout(() => finish(), 5_000);
    const finish = () => {
      clearTimeout(startPump);
      clearInterval(pump);
      clearTimeout(give);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0);
      resolve({ status, sentBytes: sent, closed: socket.destroyed || socket.readableEnded });
      socket.destroy();
    };
    socket.on('connect', () => {
      const head = Object.entries({ Host: 'localhost', 'Content-Type': 'application/json', 'Content-Length': String(100 * 1024 * 1024), ...headers })
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`);
    });
    socket.on('data', (data) => {
      reply += data.toString('latin1');
      if (reply.includes('\r\n\r\n')) setTimeout(finish, 200);
    });
    socket.on('end', () => setTimeout(finish, 50));
    socket.on('error', (error) => (reply ? finish() : reject(error)));
  });
}

describe('the local gateway under a hostile client', () => {
  it('answers a keyless request before reading its body, and closes the connection', async () => {
    const { status, sentBytes } = await answerBeforeBody('/v1/bot', {});
    expect(status).toBe(401);
    expect(sentBytes).toBeLessThan(1024 * 1024);
  });

  it('answers a request with a bad key before reading its body', async () => {
    const { status, sentBytes } = await answerBeforeBody('/v1/bot', { Authorization: `Bearer vb_${'A'.repeat(43)}` });
    expect(status).toBe(401);
    expect(sentBytes).toBeLessThan(1024 * 1024);
  });

  it('refuses a large body on a route without a key (the inbox address) before reading it', async () => {
    const { status, sentBytes } = await answerBeforeBody(`/v1/inbox/${app.tenantId}`, {});
    expect(status).toBe(413);
    expect(sentBytes).toBeLessThan(1024 * 1024);
  });

  it('never logs a query string', async () => {
    await fetch(`${app.baseUrl}/v1/account?api_key=vb_SECRETSECRETSECRET&cursor=x`, { headers: app.authHeaders });
    await fetch(`${app.baseUrl}/v1/account?api_key=vb_SECRETSECRETSECRET`);
    const lines = logged.filter((l) => l.includes('"request"'));
    expect(lines.some((l) => l.includes('"path":"/v1/account"'))).toBe(true);
    expect(logged.join('\n')).not.toContain('SECRETSECRET');
  });
});
