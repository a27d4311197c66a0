/**
 * The presenter of a clip: its rig (rigs/: the look's sprites drawn at the frame's scale, as its manifest says), its pose on every frame,
 * where it stands, and the RGBA picture of each frame that the presenter layer pipes to ffmpeg.
 */

import type { FrameSize } from '#domain/shape';
import { blendOver } from '#media/raster/blend';
import { type Box, clipTo, cropInto } from '#media/raster/box';
import { hashString, poses } from './animation.ts';
import type { CarriedCard } from './carried-backdrop.ts';
import { type ClipTiming, zoomFactor } from './clip-timeline.ts';
import { footagePresenter } from './footage/footage-bot.ts';
import { type BotBox, botHeightFor, carriesBackdrop, faceBoxOf, layoutFor, standsOnBottomEdge } from './layout.ts';
import { clipMouthFrames, speechLoudness } from './mouth-track.ts';
import type { PresenterRig, RigOptions } from './rigs/presenter-rig.ts';
import { keepRig, rigFor } from './rigs/rig.ts';
import { type BotSprites, loadSprites, lookManifest } from './sprites.ts';
import { FPS, type Presenter, type SpeechResult, type VideoClipInput } from './types.ts';

/** The presenter of a clip: a video bot's footage rig (./footage/), or the drawn rig below. */
export async function presenterFor(input: VideoClipInput, speech: SpeechResult, timing: ClipTiming): Promise<Presenter> {
  const manifest = lookManifest(input.bot.look, input.lookDirectory);
  return manifest.footage ? footagePresenter(input, speech, timing, manifest) : presenterOf(input, speech, timing);
}

/** Canvas pixels kept past the frame's edges in the piped part: more than the chroma filter reaches (px). */
const BEYOND_FRAME = 16;

function presenterOf(input: VideoClipInput, speech: SpeechResult, timing: ClipTiming): Presenter {
  const { frame, position } = input;
  const size = input.botSize ?? 'medium';
  const artwork = lookManifest(input.bot.look, input.lookDirectory);
  const sprites = loadSprites(input.bot.look, botHeightFor(frame, position, size, artwork), input.lookDirectory);
  // Without its card, a bot standing on the frame's bottom edge ends there; elsewhere its bust fades out. A card
  // carried to the frame's edges is the background layer's: the figure stands on the edge over it.
  const flush = standsOnBottomEdge(position, size, input.removeBotBackground);
  const carried = carriesBackdrop(size, input.removeBotBackground, input.background !== undefined);
  const rigOptions: RigOptions = {
    withPanel: !input.removeBotBackground && !carried,
    bottom: input.removeBotBackground || carried ? (flush ? 'flush' : 'fade') : 'card',
  };
  const rig = rigFor(sprites, rigOptions);
  const close = () => keepRig(sprites, rigOptions, rig);
  const loudness = speechLoudness(speech);
  const mouth = clipMouthFrames(speech, timing, sprites.manifest, loudness);
  // The head follows the speech: its stressed syllables (espeak-ng's phonemes), or the loudness's peaks (Polly).
  const framePoses = poses(mouth, FPS, sprites.scale, hashString(`${input.bot.uid}:${input.text}`), {
    phonemes: speech.phonemes,
    loudness,
    startFrame: timing.entryFrames,
  });
  const place = layoutFor(frame, position, sprites.manifest, { size, removeBotBackground: input.removeBotBackground, carriedBackdrop: carried });
  const frameOf = (i: number) => rig.render(framePoses[i]!, zoomFactor(i, input.transitions, timing));
  const common = {
    place,
    head: faceBoxOf(place, sprites.manifest),
    close,
    ...(carried && { backdrop: carriedCard(sprites, rig.render(framePoses[0]!)) }),
  };
  const slides = [input.transitions.entry, input.transitions.exit].some((t) => t?.startsWith('slide'));
  const part = pipedPart(rig, place, slides ? undefined : frame);
  if (part.width === rig.width && part.height === rig.height) return { ...common, width: rig.width, height: rig.height, frame: frameOf };
  const canvas = { width: rig.width, height: rig.height, data: Buffer.alloc(0) };
  const piped = { width: part.width, height: part.height, data: Buffer.alloc(part.width * part.height * 4) };
  return {
    ...common,
    width: part.width,
    height: part.height,
    crop: { x: part.x, y: part.y, canvasWidth: rig.width },
    frame: (i) => {
      cropInto(piped, { ...canvas, data: frameOf(i) }, part);
      return piped.data;
    },
  };
}

/**
 * The part of the canvas piped to ffmpeg: what the rig draws on (its extent), inside the frame unless it slides (no
 * frame given). A `full` presenter's canvas reaches past the frame's edges and, without its card, is mostly clear:
 * piping, converting and overlaying all of it cost as much as the rest of the render. Its edges are on even pixels
 * (ffmpeg's 4:2:0 chroma pairs the canvas's pixels as before) with a margin past the frame's edges.
 */
function pipedPart(rig: PresenterRig, place: BotBox, frame: FrameSize | undefined): Box {
  const extent = rig.extent();
  // A sliding canvas shows, on its way, what lies beyond the frame's edges where it stands.
  const inFrame = !frame
    ? extent
    : clipTo(extent, {
        x: -place.x - BEYOND_FRAME,
        y: -place.y - BEYOND_FRAME,
        width: frame.width + 2 * BEYOND_FRAME,
        height: frame.height + 2 * BEYOND_FRAME,
      });
  const even = (v: number) => v - (v & 1);
  const x = even(inFrame.x);
  const y = even(inFrame.y);
  const right = Math.min(rig.width, inFrame.x + inFrame.width + ((inFrame.x + inFrame.width) & 1));
  const bottom = Math.min(rig.height, inFrame.y + inFrame.height + ((inFrame.y + inFrame.height) & 1));
  return { x, y, width: right - x, height: bottom - y };
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
