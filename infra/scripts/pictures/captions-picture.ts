/**
 * `npx tsx infra/scripts/pictures/captions-picture.ts [out.png]`: the docs' picture of burned captions — two clips
 * rendered by the engine with `captions: "burn"` over the sample background (ava at bottom-right: captions beside
 * her; maya at center: under her card), one frame of each in the middle of a two-line cue, side by side at half
 * size. Default output: docs/captions.png.
 */
import { BUILT_IN_BOTS } from '#domain/bot';
import type { BotPosition } from '#domain/choices';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { writeBurnedPicture } from './burned-clips.ts';

const CLIPS: [string, BotPosition, string][] = [
  ['ava', 'bottom-right', 'Welcome! Your words appear on screen as she says them, on a box that reads on any background.'],
  ['maya', 'center', 'A presenter in the centre of the frame keeps her captions below her card, inside the margins.'],
];

writeBurnedPicture('captions-picture', 'docs/captions.png', 360, async (render) => {
  const shots = [];
  for (const [look, position, text] of CLIPS) {
    const clip = await render({
      bot: BUILT_IN_BOTS.find((b) => b.look === look)!,
      text,
      position,
      removeBotBackground: look === 'ava',
      transitions: { entry: 'fade_in' },
      frame: frameSizeOf(DEFAULT_SHAPE),
    });
    const cue = clip.cues.find((c) => c.lines.length === 2) ?? clip.cues[0]!;
    shots.push({ path: clip.path, at: (cue.startSeconds + cue.endSeconds) / 2 });
  }
  return shots;
});
