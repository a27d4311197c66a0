/**
 * The pinned media pipeline (functions/render/engine/media.ts): every accepted background format renders.
 */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { BACKGROUND_FORMATS, inspectBackground } from '#functions/media/background-media.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { type SampleFormat, writeSample } from '../../support/hostile-media.ts';
import { probeFile } from '../../support/media.ts';
import { AVA_VOICE, FRAME, workDirs } from '../../support/media-pipeline.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

const dir = workDirs();

describe('accepted background formats', () => {
  const formats: { format: SampleFormat; demuxer: string; still?: boolean; audio: boolean }[] = [
    { format: 'mp4', demuxer: 'mov', audio: true },
    { format: 'mov', demuxer: 'mov', audio: true },
    { format: 'webm', demuxer: 'matroska', audio: true },
    { format: 'mkv', demuxer: 'matroska', audio: true },
    { format: 'avi', demuxer: 'avi', audio: true },
    // Remuxed into Matroska by stream copy (ffmpeg 4.1 cannot seek them to loop).
    { format: 'ts', demuxer: 'matroska', audio: true },
    { format: 'mpg', demuxer: 'matroska', audio: true },
    { format: 'gif', demuxer: 'gif', audio: false },
    { format: 'png', demuxer: 'png_pipe', still: true, audio: false },
    { format: 'jpg', demuxer: 'jpeg_pipe', still: true, audio: false },
    { format: 'webp', demuxer: 'webp_pipe', still: true, audio: false },
  ];

  it('lists exactly the formats of the README', () => {
    expect(BACKGROUND_FORMATS.map((f) => f.label)).toEqual([
      'MP4 / MOV',
      'WebM / Matroska',
      'AVI',
      'MPEG-TS',
      'MPEG-PS',
      'GIF',
      'PNG',
      'JPEG',
      'WebP',
    ]);
  });

  for (const { format, demuxer, still, audio } of formats) {
    it(`renders a ${format} background, looped to cover a clip longer than the file`, async () => {
      const work = dir();
      const sample = await writeSample(work, format);
      const media = await inspectBackground(sample, work);
      expect(media.format.demuxer).toBe(demuxer);
      expect(Boolean(media.format.still)).toBe(Boolean(still));
      expect([media.width, media.height]).toEqual([320, 240]);
      expect(media.hasAudio).toBe(audio);

      // About 2.5 s of speech: longer than the 1.5 s sample, so a moving background must loop.
      const clip = await renderClip({
        bot: BUILT_IN_BOTS[0]!,
        voice: AVA_VOICE,
        text: 'This background is looped under the presenter.',
        position: 'bottom-right',
        removeBotBackground: false,
        background: media,
        backgroundVolume: 0.5,
        transitions: {},
        frame: FRAME,
        mode: 'video',
        workDir: work,
        speech: new EspeakSpeechEngine(),
      });
      const probed = await probeFile(clip.path);
      expect(Number(probed.format.duration)).toBeCloseTo(clip.durationSeconds, 0);
      expect(clip.durationSeconds).toBeGreaterThan(1.5);
      // The sample's blue (0x2060d0) fills the frame away from the bot, at the start and near the end.
      for (const at of [0.2, clip.durationSeconds - 0.2]) {
        const [r, g, b] = pixel(await frameRgb(clip.path, at), 100, 100, FRAME.width);
        expect(Math.abs(r - 0x20) + Math.abs(g - 0x60) + Math.abs(b - 0xd0), `${format} at ${at} s: rgb ${r},${g},${b}`).toBeLessThan(40);
      }
    }, 60_000);
  }
});
