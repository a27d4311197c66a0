/**
 * A recording's transcript may be as long as create takes it (limits.maxRecordedTranscriptChars): the render holds
 * it to that, not to the synthesised clips' limits.maxSpokenChars, so a 10-minute recording's transcript reaches
 * its alignment.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { limits } from '#domain/limits';
import { voiceToSpeak } from '#domain/voices';
import { renderClip } from '#functions/render/engine/index.ts';
import { RecordedSpeech } from '#functions/render/speech/recorded.ts';

const ava = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
const render = (text: string) => {
  const workDir = mkdtempSync(join(tmpdir(), 'vidbot-transcript-'));
  return renderClip({
    bot: ava,
    text,
    voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
    position: 'bottom-right',
    removeBotBackground: false,
    backgroundVolume: 0,
    transitions: {},
    frame: { width: 1280, height: 720 },
    mode: 'video',
    workDir,
    // No file there: a transcript the render takes goes on to the recording, and fails on its absence.
    speech: new RecordedSpeech(join(workDir, 'absent.wav'), undefined),
  });
};
const words = (n: number) => 'word '.repeat(n).slice(0, n);

describe("a recorded clip's transcript at the render", () => {
  it(`goes on to the recording at ${limits.maxRecordedTranscriptChars} characters`, async () => {
    expect(limits.maxRecordedTranscriptChars).toBeGreaterThan(limits.maxSpokenChars);
    const error = await render(words(limits.maxRecordedTranscriptChars)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).not.toBe('SpokenTextTooLongError');
  });

  it('is refused as too long one character over', async () => {
    await expect(render(words(limits.maxRecordedTranscriptChars + 1))).rejects.toMatchObject({
      name: 'SpokenTextTooLongError',
      maxChars: limits.maxRecordedTranscriptChars,
    });
  });
});
