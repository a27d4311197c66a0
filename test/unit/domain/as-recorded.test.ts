/**
 * `footage: "as_recorded"` at create: a video bot only; a clip that surely outlasts the recording is a 400 at
 * clips[i].footage; the mode reaches the render spec (and so the render cache's key) only when asked for.
 */
import { describe, expect, it } from 'vitest';
import type { AccountBot } from '#domain/account-bot';
import { leastClipSeconds } from '#domain/as-recorded';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import { renderSpecOf } from '#domain/render-spec';
import { createOnMemory } from '../../support/clip-fixtures.ts';

const videoBot = (recordingSeconds: number, kind: 'video' | 'photo' = 'video'): AccountBot => ({
  tenantId: 'acct_1',
  uid: 'my-host',
  keyId: 'key_1',
  name: 'Me',
  description: '',
  voice: 'espeak:en-us+f3',
  defaultPosition: 'center',
  status: 'ready',
  version: 'v1',
  source: kind === 'video' ? { kind: 'video', uploadKey: 'uploads/x' } : { kind: 'photo', uploadKey: 'uploads/x' },
  look: { version: 'v1', files: ['manifest.json', 'preview.png'], preview: 'preview.png', ...(kind === 'video' && { recordingSeconds }) },
  createdAt: '2026-11-23T00:00:00Z',
  updatedAt: '2026-11-23T00:00:00Z',
});

const create = (clip: Record<string, unknown>, bot: AccountBot) =>
  createOnMemory(parseCreateVideo({ webhook: 'https://e.com/h', clips: [{ bot_uid: 'my-host', ...clip }] }), { accountBot: bot });

async function problemsOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).problems;
  }
  throw new Error('expected a 400');
}

describe('footage: "as_recorded"', () => {
  it('is stored on the clip of a video bot whose recording can hold the text, and reaches the render spec', async () => {
    const [video] = await create({ text: 'Hello there, this is me.', footage: 'as_recorded' }, videoBot(12));
    const clip = video!.clips[0]!;
    expect(clip.footage).toBe('as_recorded');
    const facts = { bot: { look: 'looks/acct_1/my-host/v1' }, voice: { id: 'espeak:en-us+f3' }, mode: 'video' as const, pronunciations: [] };
    const spec = renderSpecOf(clip, { ...facts, shape: { aspectRatio: '16:9', resolution: '720p' } });
    expect(spec).toMatchObject({ footage: 'as_recorded' });
    // `loop` (the default) is the clip as before: nothing added to its spec, so its render cache key is unchanged.
    const [looped] = await create({ text: 'Hello there, this is me.', footage: 'loop' }, videoBot(12));
    expect(looped!.clips[0]!.footage).toBeUndefined();
    expect(renderSpecOf(looped!.clips[0]!, { ...facts, shape: { aspectRatio: '16:9', resolution: '720p' } })).not.toHaveProperty('footage');
  });

  it('is a 400 at clips[i].footage for a bot that is not a video bot', async () => {
    const problems = await problemsOf(create({ text: 'Hello.', footage: 'as_recorded' }, videoBot(12, 'photo')));
    expect(problems).toEqual([
      { path: 'clips[0].footage', message: '"as_recorded" plays a video bot\'s recording; bot "my-host" is not a video bot' },
    ]);
  });

  it('takes remove_bot_background for a video bot whose loops were matted, and is a 400 at it otherwise', async () => {
    const matted = (bot: AccountBot): AccountBot => ({ ...bot, look: { ...bot.look!, cutout: true } });
    const [cut] = await create({ text: 'Hello.', remove_bot_background: true }, matted(videoBot(12)));
    expect(cut!.clips[0]!.removeBotBackground).toBe(true);
    // A look prepared without the matte has nothing to cut the person out with.
    expect(await problemsOf(create({ text: 'Hello.', remove_bot_background: true }, videoBot(12)))).toEqual([
      {
        path: 'clips[0].remove_bot_background',
        message: 'bot "my-host" was prepared without a matte of its footage; PUT the bot again to have one made',
      },
    ]);
    // The matte covers the loops; as recorded, the whole recording plays.
    expect(await problemsOf(create({ text: 'Hello.', remove_bot_background: true, footage: 'as_recorded' }, matted(videoBot(12))))).toEqual([
      {
        path: 'clips[0].remove_bot_background',
        message: 'with footage "as_recorded" bot "my-host"\'s recording is shown whole, with its own backdrop; leave one of the two out',
      },
    ]);
    // A photo bot keeps the option.
    const [video] = await create({ text: 'Hello.', remove_bot_background: true }, videoBot(12, 'photo'));
    expect(video!.clips[0]!.removeBotBackground).toBe(true);
  });

  it('is a 400 at clips[i].footage when the clip surely lasts longer than the recording (its words, breaks and transitions)', async () => {
    // 10 words (2 s at the fastest rate), a 3-s break and a fade in: at least 5.6 s, against a 5-s recording.
    const text = 'One two three four five <break time="3s"/> six seven eight nine ten';
    expect(leastClipSeconds({ text, transitions: { entry: 'fade_in' } })).toBeCloseTo(5.6, 5);
    const problems = await problemsOf(create({ text, transitions: 'fade_in', footage: 'as_recorded' }, videoBot(5)));
    expect(problems).toEqual([
      {
        path: 'clips[0].footage',
        message:
          'the clip lasts at least 5.6 s (its words, breaks and transitions) and bot "my-host"\'s recording 5.0 s: shorten the text or leave footage out (the loop covers any length)',
      },
    ]);
    // The same text without the fade fits (5 s), and looping covers any length.
    await expect(create({ text, footage: 'as_recorded' }, videoBot(5))).resolves.toHaveLength(1);
    await expect(create({ text, transitions: 'fade_in' }, videoBot(5))).resolves.toHaveLength(1);
  });

  it('names the field and its choices for an unknown mode', async () => {
    expect(() => parseCreateVideo({ webhook: 'https://e.com/h', clips: [{ bot_uid: 'my-host', text: 'Hi', footage: 'reversed' }] })).toThrow(
      InvalidRequestError,
    );
    try {
      parseCreateVideo({ webhook: 'https://e.com/h', clips: [{ bot_uid: 'my-host', text: 'Hi', footage: 'reversed' }] });
    } catch (error) {
      expect((error as InvalidRequestError).problems).toEqual([{ path: 'clips[0].footage', message: 'must be one of loop, as_recorded' }]);
    }
  });
});
