/**
 * How a caller sees a bot of the account (functions/commons/presenters/bot.ts): a ready video bot shows what its
 * footage allows (the recording's length for `footage: "as_recorded"`, whether `remove_bot_background` can work)
 * and what its recording lacks (its warnings);
 * other bots, and a video bot still preparing, show no footage.
 */
import { describe, expect, it } from 'vitest';
import { presentAccountBot } from '#commons/presenters/bot';
import type { AccountBot, StoredLook } from '#domain/account-bot';

const objects = { presignGet: async (key: string) => ({ url: `https://bucket.test/${key}`, expiresAt: '2026-12-01T00:00:00Z' }) };
const voices = { polly: false };

function bot(source: AccountBot['source'], status: AccountBot['status'], look?: StoredLook): AccountBot {
  return {
    tenantId: 'acct_1',
    uid: 'me',
    keyId: 'key_1',
    name: 'Me',
    description: '',
    voice: 'espeak:en-us',
    defaultPosition: 'bottom-right',
    status,
    version: 'v2',
    source,
    ...(look && { look }),
    createdAt: '2026-11-28T10:00:00Z',
    updatedAt: '2026-11-28T10:01:00Z',
  };
}
const video = { kind: 'video_url', url: 'https://example.com/me.mp4' } as const;
const look = (extra: Partial<StoredLook>): StoredLook => ({
  version: 'v2',
  files: ['manifest.json', 'preview.png'],
  preview: 'preview.png',
  ...extra,
});

describe("an account bot's footage, as shown", () => {
  it('a ready video bot with mattes: its recording length, and its background removable', async () => {
    const shown = await presentAccountBot(bot(video, 'ready', look({ recordingSeconds: 42.5, cutout: true })), objects, voices);
    expect(shown).toMatchObject({ kind: 'video', footage: { recording_seconds: 42.5, background_removable: true } });
  });

  it('a ready video bot prepared without mattes: not removable', async () => {
    const shown = await presentAccountBot(bot(video, 'ready', look({ recordingSeconds: 12 })), objects, voices);
    expect(shown).toMatchObject({ footage: { recording_seconds: 12, background_removable: false } });
    // Prepared before warnings were: not known, so not shown as none.
    expect(shown.footage).not.toHaveProperty('warnings');
    const none = await presentAccountBot(bot(video, 'ready', look({ recordingSeconds: 12, warnings: [] })), objects, voices);
    expect(none.footage).toEqual({ recording_seconds: 12, background_removable: false, warnings: [] });
  });

  it('a ready video bot shows what its recording lacks, as stored at preparation', async () => {
    const warnings = [{ code: 'no_rounded_lips' as const, message: 'the lips are never rounded in the recording' }];
    const shown = await presentAccountBot(bot(video, 'ready', look({ recordingSeconds: 12, warnings })), objects, voices);
    expect(shown).toMatchObject({ footage: { warnings } });
  });

  it('no footage for a video bot still preparing, nor for a photo bot', async () => {
    expect(await presentAccountBot(bot(video, 'preparing', look({ recordingSeconds: 12, cutout: true })), objects, voices)).not.toHaveProperty(
      'footage',
    );
    const photo = await presentAccountBot(bot({ kind: 'photo_url', url: 'https://example.com/me.jpg' }, 'ready', look({})), objects, voices);
    expect(photo).not.toHaveProperty('footage');
  });
});
