/**
 * The presenter of a clip: its rig (rigs/: the look's sprites drawn at the frame's scale, as its manifest says), its pose on every frame,
 * where it stands, and the RGBA picture of each frame that the presenter layer pipes to ffmpeg.
 */

import { blendOver } from '#media/raster/blend';
import { hashString, poses } from './animation.ts';
import type { CarriedCard } from './carried-backdrop.ts';
import { type ClipTiming, zoomFactor } from './clip-timeline.ts';
import { footagePresenter } from './footage/footage-bot.ts';
import { botHeightFor, carriesBackdrop, faceBoxOf, layoutFor, standsOnBottomEdge } from './layout.ts';
import { clipMouthFrames, speechLoudness } from './mouth-track.ts';
import type { PresenterRig } from './rigs/presenter-rig.ts';
import { rigFor } from './rigs/rig.ts';
import { type BotSprites, loadSprites, lookManifest } from './sprites.ts';
import { FPS, type Presenter, type SpeechResult, type VideoClipInput } from './types.ts';

/** The presenter of a clip: a video bot's footage rig (./footage/), or the drawn rig below. */
export async function presenterFor(input: VideoClipInput, speech: SpeechResult, timing: ClipTiming): Promise<Presenter> {
  const manifest = lookManifest(input.bot.look, input.lookDirectory);
  return manifest.footage ? footagePresenter(input, speech, timing, manifest) : presenterOf(input, speech, timing);
}

function presenterOf(input: VideoClipInput, speech: SpeechResult, timing: ClipTiming): Presenter {
  const { frame, position } = input;
  const size = input.botSize ?? 'medium';
  const artwork = lookManifest(input.bot.look, input.lookDirectory);
  const sprites = loadSprites(input.bot.look, botHeightFor(frame, position, size, artwork), input.lookDirectory);
  // Without its card, a bot standing on the frame's bottom edge ends there; elsewhere its bust fades out. A card
  // carried to the frame's edges is the background layer's: the figure stands on the edge over it.
  const flush = standsOnBottomEdge(position, size, input.removeBotBackground);
  const carried = carriesBackdrop(size, input.removeBotBackground, input.background !== undefined);
  const rig = rigFor(sprites, {
    withPanel: !input.removeBotBackground && !carried,
    bottom: input.removeBotBackground || carried ? (flush ? 'flush' : 'fade') : 'card',
  });
  const loudness = speechLoudness(speech);
  const mouth = clipMouthFrames(speech, timing, sprites.manifest, loudness);
  // The head follows the speech: its stressed syllables (espeak-ng's phonemes), or the loudness's peaks (Polly).
  const framePoses = poses(mouth, FPS, sprites.scale, hashString(`${input.bot.uid}:${input.text}`), {
    phonemes: speech.phonemes,
    loudness,
    startFrame: timing.entryFrames,
  });
  const place = layoutFor(frame, position, sprites.manifest, { size, removeBotBackground: input.removeBotBackground, carriedBackdrop: carried });
  return {
    width: rig.width,
    height: rig.height,
    place,
    head: faceBoxOf(place, sprites.manifest),
    ...(carried && { backdrop: carriedCard(sprites, rig.render(framePoses[0]!)) }),
    frame: (i) => rig.render(framePoses[i]!, zoomFactor(i, input.transitions, timing)),
  };
}

/** The card to carry to the frame's edges: the panel, and the panel with the figure of the first frame over it. */
function carriedCard(sprites: BotSprites, figure: ReturnType<PresenterRig['render']>): CarriedCard {
  const { panel, scale } = sprites;
  const withFigure = { width: panel.width, height: panel.height, data: Buffer.from(panel.data) };
  blendOver(withFigure, { width: panel.width, height: panel.height, data: figure }, 0, 0);
  const p = sprites.manifest.panel;
  return {
    panel,
    withFigure,
    card: { x0: p.x * scale, y0: p.y * scale, x1: (p.x + p.width) * scale, y1: (p.y + p.height) * scale, radius: p.radius * scale },
    scale,
  };
}
