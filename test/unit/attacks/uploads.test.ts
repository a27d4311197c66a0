/**
 * A bot's upload is stored as opaque bytes, whatever Content-Type its part claimed: `text/html` (or an SVG) in
 * the bucket would be served as a page of the caller's until the preparation deletes it.
 */
import { describe, expect, it } from 'vitest';
import type { AccountBot } from '#domain/account-bot';
import { parsePutBot } from '#domain/account-bot-request';
import { type AccountBotDeps, putAccountBot } from '#domain/account-bots';
import { liveAccountsOnly } from '../../support/fakes.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';

const PNG = builtInLookAsPrepared('ava').files.get('head-m0-eo.png')!;

function recordingDeps() {
  const stored: { key: string; contentType: string }[] = [];
  const records = new Map<string, AccountBot>();
  const deps = {
    accountBots: {
      get: async (tenantId: string, uid: string) => records.get(`${tenantId}/${uid}`),
      list: async () => [...records.values()],
      put: async (bot: AccountBot) => (records.set(`${bot.tenantId}/${bot.uid}`, bot), true),
    },
    objects: {
      putBytes: async (key: string, _body: Uint8Array | string, options: { contentType: string }) => {
        stored.push({ key, contentType: options.contentType });
      },
      delete: async () => {},
    },
    accounts: liveAccountsOnly,
    prepareQueue: { send: async () => {}, sendBatch: async () => {} },
    footageQueue: { send: async () => {}, sendBatch: async () => {} },
    now: () => new Date(),
    newVersion: () => 'v_1',
  } as unknown as AccountBotDeps;
  return { deps, stored };
}

describe('uploads', () => {
  it.each(['text/html', 'image/svg+xml', 'application/javascript', 'image/png'])(
    'a part sent as %s is stored as application/octet-stream',
    async (contentType) => {
      const { deps, stored } = recordingDeps();
      const command = parsePutBot('up-1', { name: 'Up' }, { image: { bytes: PNG, contentType } }, { polly: false });
      await putAccountBot(command, { tenantId: 'acct_up', keyId: 'key_up' }, deps);
      expect(stored).toEqual([{ key: expect.stringMatching(/^uploads\/acct_up\/up-1\//), contentType: 'application/octet-stream' }]);
    },
  );
});
