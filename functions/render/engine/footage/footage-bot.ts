/**
 * A video bot as the clip draws it (the footage rig behind the Presenter interface, ../presenter.ts): its frames,
 * where it stands, and its head box, so the clip's layers are the same as for any presenter.
 *
 * `small`, `medium` and `large` place the recording as a card with rounded corners, as any bot's card. `full`
 * shows the recording itself as the picture, at its own aspect: as large as the frame holds it whole, on the
 * frame's bottom edge, without a card; a 9:16 recording in a 9:16 video fills the frame.
 */
import type { BotPosition } from '#domain/choices';
import type { BotManifest } from '#domain/look';
import type { FrameSize } from '#domain/shape';
import type { ClipTiming } from '../clip-timeline.ts';
import { type BotBox, botHeightFor, headBoxOf, layoutFor } from '../layout.ts';
import type { Presenter, SpeechResult, VideoClipInput } from '../types.ts';
import { listeningOf } from './footage-listening.ts';
import { footageMouthFrames } from './footage-mouth.ts';
import { FootageRig } from './footage-rig.ts';

/**
 * The box of a `full` video bot: the recording scaled to fit the frame whole (even sizes, as the encoder wants),
 * standing on the bottom edge, left, centred or right as the position's horizontal word says.
 * @internal Exported for its tests.
 */
export function fullFootageBox(frame: FrameSize, position: BotPosition, manifest: Pick<BotManifest, 'width' | 'height'>): BotBox {
  const scale = Math.min(frame.width / manifest.width, frame.height / manifest.height);
  const even = (v: number, most: number) => Math.min(most, 2 * Math.round(v / 2));
  const width = even(manifest.width * scale, frame.width);
  const height = even(manifest.height * scale, frame.height);
  const horizontal = position === 'center' ? 'center' : position.split('-')[1];
  const x = horizontal === 'left' ? 0 : horizontal === 'right' ? frame.width - width : Math.round((frame.width - width) / 2);
  return { x, y: frame.height - height, width, height };
}

export async function footagePresenter(input: VideoClipInput, speech: SpeechResult, timing: ClipTiming, manifest: BotManifest): Promise<Presenter> {
  const { frame, position } = input;
  const size = input.botSize ?? 'medium';
  const directory = input.lookDirectory;
  if (!directory) throw new Error('a video bot renders from its look directory');
  const full = size === 'full';
  const laid = full
    ? fullFootageBox(frame, position, manifest)
    : layoutFor(frame, position, manifest, { size, removeBotBackground: input.removeBotBackground });
  const rig = await FootageRig.open(
    directory,
    manifest,
    full ? laid.height : botHeightFor(frame, position, size, manifest),
    !full,
    input.footage ?? 'loop',
  );
  rig.ensureCovers(timing.frames);
  const mouth = footageMouthFrames(speech, timing, manifest);
  const listening = listeningOf(speech, timing);
  const place = { ...laid, width: rig.width, height: rig.height };
  return {
    width: rig.width,
    height: rig.height,
    place,
    head: headBoxOf(place, manifest),
    frame: (i: number) => rig.render(i, mouth[i] ?? { frame: 'm0' }, timing.totalSeconds, listening[i] ?? 0),
    close: () => rig.close(),
  };
}
