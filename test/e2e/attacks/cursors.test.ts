/**
 * Every paged list takes a `cursor` back from the caller. A crafted one (not base64, not JSON, the wrong key
 * attributes, another account's, odd values) is a 400 `invalid_cursor` and never reaches DynamoDB, whose
 * ValidationException would be a 500; a genuine next_cursor still pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

let app: TestRuntime;
beforeAll(async () => {
  app = await startTestRuntime();
}, 120_000);
afterAll(() => app?.stop());

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${app.baseUrl}${path}`, { ...init, headers: { ...app.authHeaders, ...(init.headers as Record<string, string>) } });
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('crafted cursors', () => {
  const crafted = () => [
    'not-base64-$$$',
    encode('a string'),
    encode([1, 2]),
    encode({}),
    encode({ tenantId: app.tenantId }),
    encode({ tenantId: app.tenantId, videoId: 'vid_x', createdAt: '2026-01-01T00:00:00Z', extra: 'x' }),
    encode({ tenantId: app.tenantId, clipUid: { S: 'x' } }),
    encode({ tenantId: 'acct_someone_else', uid: 'x' }),
    encode({ tenantId: app.tenantId, receivedKey: 'x'.repeat(5000) }),
    'A'.repeat(5000),
    // The right attributes, a number where the table keeps a string (DynamoDB: "does not match the schema").
    ...['uid', 'clipUid', 'receivedKey', 'batchId'].flatMap((key) => [
      encode({ tenantId: app.tenantId, [key]: 5 }),
      encode({ tenantId: app.tenantId, [key]: 1e308 }),
    ]),
    encode({ tenantId: app.tenantId, videoId: 1, createdAt: 7 }),
  ];

  for (const path of ['/v1/video', '/v1/clips', '/v1/inbox', '/v1/templates', '/v1/batches']) {
    it(`${path}: every crafted cursor is a 400 invalid_cursor`, async () => {
      for (const cursor of crafted()) {
        const response = await api(`${path}?cursor=${encodeURIComponent(cursor)}`);
        expect(response.status, `${path} ${cursor.slice(0, 60)}`).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_cursor');
      }
    });
  }

  it('a genuine next_cursor pages on', async () => {
    const template = { name: 'x', clips: [{ bot_uid: 'bot_ava', text: 'Hi.' }] };
    for (const uid of ['page-a', 'page-b']) {
      const saved = await api(`/v1/templates/${uid}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(template),
      });
      expect(saved.status).toBe(200);
    }
    const first = (await (await api('/v1/templates?limit=1')).json()) as { templates: { uid: string }[]; next_cursor: string };
    const second = (await (await api(`/v1/templates?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`)).json()) as {
      templates: { uid: string }[];
    };
    expect([first.templates[0]!.uid, second.templates[0]!.uid]).toEqual(['page-a', 'page-b']);
  });
});
