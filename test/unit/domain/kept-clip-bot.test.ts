/**
 * A kept clip (clip_uid) of an account's bot is checked like a clip described in full: its bot deleted is a 400
 * naming the clip_uid, its bot preparing or failed is the 409 bot_not_ready.
 */
import { describe, expect, it } from 'vitest';
import type { AccountBot } from '#domain/account-bot';
import { parseCreateVideo } from '#domain/create-request';
import { ConflictError, InvalidRequestError } from '#domain/errors';
import { createOnMemory, keptClip } from '../../support/clip-fixtures.ts';

const kept = keptClip({ botUid: 'my-host' });

const ownBot = (status: AccountBot['status']): AccountBot => ({
  tenantId: 'acct_1',
  uid: 'my-host',
  keyId: 'key_1',
  name: 'My host',
  description: '',
  voice: 'espeak:en-us+f3',
  defaultPosition: 'bottom-right',
  status,
  version: 'v1',
  source: { kind: 'photo', uploadKey: 'uploads/x' },
  ...(status === 'ready' && { look: { version: 'v1', files: ['manifest.json', 'preview.png'], preview: 'preview.png' } }),
  createdAt: '2026-11-23T00:00:00Z',
  updatedAt: '2026-11-23T00:00:00Z',
});

/** The create use case on in-memory ports: one kept clip of the account's bot `my-host`, the bot as given. */
const create = (bot: AccountBot | undefined) =>
  createOnMemory(parseCreateVideo({ webhook: 'https://e.com/h', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }, { clip_uid: 'clip_abc' }] }), {
    kept,
    accountBot: bot,
  });

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('a kept clip of an account bot', () => {
  it('is accepted while its bot is ready, pinned to the bot as it is now (not as it was when kept)', async () => {
    const stale = { voice: 'espeak:de+m3', look: { version: 'v0', files: ['manifest.json'], preview: 'preview.png' } };
    kept.spec.pinnedBot = stale;
    try {
      const [video] = await create(ownBot('ready'));
      expect(video!.clips[1]).toMatchObject({ botUid: 'my-host', reusedClipUid: 'clip_abc' });
      expect(video!.clips[1]!.pinnedBot).toEqual({ voice: 'espeak:en-us+f3', look: ownBot('ready').look });
      // A built-in bot has nothing to pin.
      expect(video!.clips[0]!.pinnedBot).toBeUndefined();
    } finally {
      delete kept.spec.pinnedBot;
    }
  });

  it('is a 400 naming clips[i].clip_uid once its bot is deleted', async () => {
    const error = await refusal(create(undefined));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).problems).toEqual([
      {
        path: 'clips[1].clip_uid',
        message: 'kept clip "clip_abc" is spoken by bot "my-host", which no longer exists; describe the clip in full with another bot (GET /v1/bot)',
      },
    ]);
  });

  it.each(['preparing', 'failed'] as const)('is the 409 bot_not_ready while its bot is %s', async (status) => {
    const error = await refusal(create(ownBot(status)));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'bot_not_ready' });
    expect((error as ConflictError).message).toContain(`clips[1].clip_uid: bot "my-host" is ${status}`);
  });
});
