/**
 * A video bot as the clip draws it (the footage rig behind the Presenter interface, ../presenter.ts): its frames,
 * where it stands, and its head box, so the clip's layers are the same as for any presenter.
 */
import type { BotManifest } from '#domain/look';
import type { ClipTiming } from '../clip-timeline.ts';
import { botHeightFor, headBoxOf, layoutFor } from '../layout.ts';
import { clipMouthFrames, speechLoudness } from '../mouth-track.ts';
import type { Presenter, RenderClipInput, SpeechResult } from '../types.ts';
import { FootageRig } from './footage-rig.ts';

export async function footagePresenter(input: RenderClipInput, speech: SpeechResult, timing: ClipTiming, manifest: BotManifest): Promise<Presenter> {
  const { frame, position } = input;
  const size = input.botSize ?? 'medium';
  const directory = input.lookDirectory;
  if (!directory) throw new Error('a video bot renders from its look directory');
  const rig = await FootageRig.open(directory, manifest, botHeightFor(frame, position, size, manifest), size !== 'full');
  const mouth = clipMouthFrames(speech, timing, manifest, speechLoudness(speech));
  const laid = layoutFor(frame, position, manifest, { size, removeBotBackground: input.removeBotBackground });
  const place = { ...laid, width: rig.width, height: rig.height };
  return {
    width: rig.width,
    height: rig.height,
    place,
    head: headBoxOf(place, manifest),
    frame: (i: number) => rig.render(i, mouth[i] ?? { frame: 'm0' }, timing.totalSeconds),
    close: () => rig.close(),
  };
}
