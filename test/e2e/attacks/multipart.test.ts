/**
 * A multipart body cut off inside a file part (`-F rows=@rows.csv` whose upload broke) is a 400 on every route
 * that reads multipart, never a crashed execution environment: busboy reports the cut on the part's own stream,
 * which, unheard, ended the process (a 502 and a cold start for the next caller).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

let app: TestRuntime;
beforeAll(async () => {
  app = await startTestRuntime();
}, 120_000);
afterAll(() => app?.stop());

const cutOff = (part: string, filename: string) => ({
  headers: { 'content-type': 'multipart/form-data; boundary=abc' },
  body: `--abc\r\nContent-Disposition: form-data; name="${part}"; filename="${filename}"\r\n\r\nfirst_name\nA`,
});

describe('a multipart body cut off inside a file part', () => {
  it('is a 400 on every multipart route, and the function keeps serving', async () => {
    const template = { name: 'Hi', create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Hi {{first_name}}.' }] };
    const put = await fetch(`${app.baseUrl}/v1/templates/cut`, {
      method: 'PUT',
      headers: { ...app.authHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(template),
    });
    expect(put.status).toBe(200);
    const routes: [string, string, string, string][] = [
      ['POST', '/v1/templates/cut/batches', 'rows', 'rows.csv'],
      ['POST', '/v1/templates/cut/videos', 'variables', 'variables.json'],
      ['POST', '/v1/bot', 'clips', 'clips.json'],
      ['PUT', '/v1/templates/cut2', 'clips', 'clips.json'],
      ['PUT', '/v1/bot/cut-bot', 'image', 'photo.png'],
    ];
    for (const [method, path, part, filename] of routes) {
      const { headers, body } = cutOff(part, filename);
      const response = await fetch(`${app.baseUrl}${path}`, { method, headers: { ...app.authHeaders, ...headers }, body });
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    }
    // The same environments answer at once: none was lost.
    const list = await fetch(`${app.baseUrl}/v1/batches`, { headers: app.authHeaders });
    expect(list.status).toBe(200);
    expect((await fetch(`${app.baseUrl}/v1/templates/cut`, { headers: app.authHeaders })).status).toBe(200);
  }, 60_000);
});
