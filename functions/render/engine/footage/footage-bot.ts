/**
 * A video bot as the clip draws it (the footage rig's side of render-clip.ts's hook): its frames, where it stands,
 * and its head box. The same answers as the drawn presenters' drawnBot, so the clip's filter graph is the same.
 */
import type { BotManifest } from '#domain/look';
import { type ClipTiming, clipMouthFrames, speechLoudness } from '../clip-timeline.ts';
import { botHeightFor, headBoxOf, layoutFor } from '../layout.ts';
import type { RenderClipInput, SpeechResult } from '../types.ts';
import { FootageRig } from './footage-rig.ts';

export async function footageBot(input: RenderClipInput, speech: SpeechResult, timing: ClipTiming, manifest: BotManifest) {
  const { frame, position } = input;
  const size = input.botSize ?? 'medium';
  const directory = input.lookDirectory;
  if (!directory) throw new Error('a video bot renders from its look directory');
  const rig = await FootageRig.open(directory, manifest, botHeightFor(frame, position, size, manifest), size !== 'full');
  const mouth = clipMouthFrames(speech, timing, manifest, speechLoudness(speech));
  const laid = layoutFor(frame, position, manifest, { size, removeBotBackground: input.removeBotBackground });
  const place = { ...laid, width: rig.width, height: rig.height };
  return {
    compositor: { width: rig.width, height: rig.height },
    draw: (i: number) => rig.render(i, mouth[i] ?? { frame: 'm0' }, timing.totalSeconds),
    close: () => rig.close(),
    place,
    head: headBoxOf(place, manifest),
  };
}
