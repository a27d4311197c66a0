/**
 * A batch's inputs as an attacker sends them: another account's template and batches, more batches than an
 * account may run, a body over the cap, a file of thousands of bad rows, values that try to open placeholders or
 * pass markup, a cursor it did not get, a webhook at a forbidden address. Each is a clear 4xx with nothing made,
 * and the words of a value are spoken as written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '#domain/limits';
import { createKey, setVideosInProgressLimit } from '#infra/scripts/keys.ts';
import type { TestRuntime } from '../../support/harness.ts';
import { keyTarget } from '../../support/reliability.ts';
import { apiOf, type E2eService, startE2eService, stopE2eService } from '../../support/service.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let other: Record<string, string>;

beforeAll(async () => {
  ({ app, files, receiver } = await startE2eService('vidbot-e2e-batch-attacks-', { seconds: 2 }));
  other = { Authorization: `Bearer ${(await createKey(keyTarget(app), { name: 'another account' })).apiKey}` };
  const template = { name: 'Hello', create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Hi {{name}} from {{company|us}}.' }] };
  expect((await api('/v1/templates/hello', json('PUT', template))).status).toBe(200);
}, 180_000);
afterAll(() => stopE2eService({ app, files, receiver }));

const api = apiOf(() => app);
function json(method: string, body: unknown, headers: Record<string, string> = {}) {
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
const batch = (rows: unknown, headers: Record<string, string> = {}) =>
  api('/v1/templates/hello/batches', json('POST', { webhook: receiver.url, rows }, headers));
const count = async (path: string, key: string) => ((await (await api(`${path}?limit=100`)).json()) as any)[key].length;

describe('batch attacks', () => {
  it("keeps one account's template and batches from another: 404, nothing made", async () => {
    const mine = (await (await batch([{ name: 'Ada' }])).json()) as any;
    const theirs = await api('/v1/templates/hello/batches', json('POST', { webhook: receiver.url, rows: [{ name: 'Eve' }] }, other));
    expect(theirs.status).toBe(404);
    expect((await api(`/v1/batches/${mine.batch_id}`, { headers: other })).status).toBe(404);
    expect((await api(`/v1/batches/${mine.batch_id}`, { method: 'DELETE', headers: other })).status).toBe(404);
    expect(((await (await api('/v1/batches', { headers: other })).json()) as any).batches).toEqual([]);
    // Settled before the next test counts videos.
    await expect.poll(async () => ((await (await api(`/v1/batches/${mine.batch_id}`)).json()) as any).status, { timeout: 60_000 }).toBe('completed');
  });

  it('names at most 100 problems of a file of 1000 bad rows, and makes nothing', async () => {
    const before = await count('/v1/video', 'videos');
    const csv = `nickname\n${'x\n'.repeat(1000)}`;
    const form = new FormData();
    form.set('webhook', receiver.url);
    form.set('rows', new Blob([csv]), 'rows.csv');
    const refused = await api('/v1/templates/hello/batches', { method: 'POST', body: form });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error.details).toHaveLength(limits.maxBatchProblems);
    expect(await count('/v1/video', 'videos')).toBe(before);
  });

  it('counts records, not lines: a file of multi-line cells over the row limit is refused, never cut short', async () => {
    const before = await count('/v1/video', 'videos');
    const csv = `name\n${'"two\nlines"\n'.repeat(limits.maxBatchRows + 1)}`;
    for (const dryRun of ['true', 'false']) {
      const form = new FormData();
      form.set('webhook', receiver.url);
      form.set('dry_run', dryRun);
      form.set('rows', new Blob([csv]), 'rows.csv');
      const refused = await api('/v1/templates/hello/batches', { method: 'POST', body: form });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as any).error.details[0]).toEqual({
        path: 'rows',
        message: `has more than ${limits.maxBatchRows} rows; a batch has at most ${limits.maxBatchRows}`,
      });
    }
    expect(await count('/v1/video', 'videos')).toBe(before);
  });

  it('answers a row of a hundred thousand keys, or a header of thousands of columns, with one clear 400', async () => {
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, 'v']));
    const refused = await api('/v1/templates/hello/batches', json('POST', { webhook: receiver.url, dry_run: true, rows: [{ name: 'Ada' }, wide] }));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error.details).toEqual([
      { path: 'rows[1]', message: `has 100000 values; a template has at most ${limits.maxTemplateVariables} variables` },
    ]);
    const form = new FormData();
    form.set('webhook', receiver.url);
    form.set('rows', new Blob([`${Array.from({ length: 5000 }, (_, i) => `c${i}`).join(',')}\n`]), 'rows.csv');
    const header = await api('/v1/templates/hello/batches', { method: 'POST', body: form });
    expect(header.status).toBe(400);
    expect(((await header.json()) as any).error.details).toEqual([
      { path: 'rows', message: `has 5000 columns; a template has at most ${limits.maxTemplateVariables} variables` },
    ]);
  });

  it('refuses a body over the cap with 413 before reading rows', async () => {
    const big = `name\n${'y'.repeat(400)}\n`.repeat(Math.ceil((limits.maxBatchBodyBytes + 1) / 406));
    const form = new FormData();
    form.set('webhook', receiver.url);
    form.set('rows', new Blob([big]), 'rows.csv');
    const refused = await api('/v1/templates/hello/batches', { method: 'POST', body: form });
    expect(refused.status).toBe(413);
  });

  it('speaks a value that opens a placeholder or carries markup as written', async () => {
    const created = (await (await batch([{ name: '{{company}} <b>x</b> {\\an8}' }])).json()) as any;
    await expect
      .poll(async () => ((await (await api(`/v1/batches/${created.batch_id}`)).json()) as any).status, { timeout: 60_000 })
      .toBe('completed');
    const row = ((await (await api(`/v1/batches/${created.batch_id}`)).json()) as any).videos[0];
    const video = (await (await api(`/v1/video/${row.video_id}`)).json()) as any;
    // Escaped into the clip's text (its markup language): said and shown as written, never read as a tag.
    expect(video.clips[0].text).toBe('Hi {{company}} &lt;b&gt;x&lt;/b&gt; {\\an8} from us.');
    expect(video.status).toBe('completed');
  });

  it(`holds an account to ${limits.maxBatchesInProgress} batches running: the next is a 429 with Retry-After, nothing made`, async () => {
    // One video in progress at a time: the account's batches run slowly and stay running.
    await setVideosInProgressLimit(keyTarget(app), app.tenantId, 1);
    const running: string[] = [];
    try {
      for (let i = 0; i < limits.maxBatchesInProgress; i++) {
        const response = await batch(Array.from({ length: 20 }, (_, row) => ({ name: `N${i}-${row}` })));
        expect(response.status).toBe(202);
        running.push(((await response.json()) as any).batch_id);
      }
      const batches = await count('/v1/batches', 'batches');
      const refused = await batch([{ name: 'One too many' }]);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(String(limits.batchesInProgressRetryAfterSeconds));
      expect(((await refused.json()) as any).error.code).toBe('too_many_batches_in_progress');
      expect(await count('/v1/batches', 'batches')).toBe(batches);
      // Another account is not held by this one's batches.
      expect((await api('/v1/templates/hello', { headers: other })).status).toBe(404);
    } finally {
      for (const id of running) await api(`/v1/batches/${id}`, { method: 'DELETE' });
      await setVideosInProgressLimit(keyTarget(app), app.tenantId, 20);
    }
  });

  it('refuses a webhook at a forbidden address once, not per row', async () => {
    const refused = await api(
      '/v1/templates/hello/batches',
      json('POST', { webhook: 'http://169.254.169.254/latest/meta-data', rows: Array.from({ length: 50 }, () => ({ name: 'A' })) }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error.details).toEqual([{ path: 'webhook', message: expect.stringMatching(/does not connect to/) }]);
  });
});
