/**
 * A video bot's measures on a recording of a person (docs/video-bots.md#measured): the recording becomes a look
 * (or a look prepared before is read back with --look), the viseme sentence is spoken (espeak-ng) and drawn by the
 * footage rig at the size of a `large` bot in 16:9 720p, and every drawn frame is measured:
 * - the landmark net reads its mouth (independently of the atlas's own measures): the m/b/p closures and the inner
 *   lips on "oo" against "ee";
 * - the seam: the colour step across the blend's boundary, against the same pixels of the footage's own frame;
 * - stillness: while one shape holds, the mouth's change from frame to frame, against the footage's own;
 * - the loop: the change across the base loop's wrap, against the footage's own frame-to-frame change;
 * - the colour: the cast of the laid lower face against the footage's own frame, each side of the mouth apart, and
 *   the lower jaw's width as the landmark net reads both.
 * With --keep <dir>, the look, a PNG of the lower face at every m/b/p and the frame of the strongest cast beside the
 * footage's own are written there (and with --frames 37,83 those frames beside the footage's own).
 *
 *   npx tsx infra/scripts/measure/video-bot-measures.ts <recording.mp4> [--look <dir>] [--keep <dir> [--frames <n,n>]]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PNG } from 'pngjs';
import { speechScriptOf } from '../../../functions/domain/lexicon.ts';
import type { BotManifest, MouthSample } from '../../../functions/domain/look.ts';
import { frameSizeOf } from '../../../functions/domain/shape.ts';
import { readFootage } from '../../../functions/media/footage-media.ts';
import { buildFootageLook } from '../../../functions/prepare/footage/footage-look.ts';
import { CLOSED_OPENING, measureMouth } from '../../../functions/prepare/footage/mouth-measures.ts';
import { FaceTracker } from '../../../functions/prepare/footage/track.ts';
import { clipTiming } from '../../../functions/render/engine/clip-timeline.ts';
import { footageMouthFrames } from '../../../functions/render/engine/footage/footage-mouth.ts';
import { FootageRig } from '../../../functions/render/engine/footage/footage-rig.ts';
import { atlasSheetOf, blendWeights, seamSpread } from '../../../functions/render/engine/footage/mouth-blend.ts';
import { botHeightFor } from '../../../functions/render/engine/layout.ts';
import { FPS } from '../../../functions/render/engine/types.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import {
  bilabialOpenings,
  closedCount,
  frameChange,
  mouthBox,
  quantile,
  rgbOf,
  roundedAgainstSpread,
  seamStep,
  toneCast,
  VISEME_SENTENCE,
} from '../support/footage-measures.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { keep: { type: 'string' }, look: { type: 'string' }, frames: { type: 'string' } },
});
const recording = positionals[0];
if (values.frames && !values.keep) throw new Error('--frames writes its frames to the --keep directory: give --keep <dir>');
if (!recording && !values.look) throw new Error('usage: video-bot-measures.ts <recording> [--look <dir>] [--keep <dir> [--frames <n,n>]]');
const root = mkdtempSync(join(tmpdir(), 'vidbot-measures-'));
const dir = values.look ?? values.keep ?? join(root, 'look');
mkdirSync(dir, { recursive: true });

if (!existsSync(join(dir, 'manifest.json'))) {
  const started = Date.now();
  const look = await buildFootageLook(recording!, statSync(recording!).size, root);
  for (const [file, bytes] of look.files) writeFileSync(join(dir, file), bytes);
  console.log(`prepared in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BotManifest;
const footage = manifest.footage!;
const filed = new Map<string, string[]>();
for (const s of footage.samples) filed.set(s.frame, [...(filed.get(s.frame) ?? []), `${s.opening.toFixed(3)}/${s.width.toFixed(2)}`]);
console.log(`atlas (opening/width, eye distances): ${[...filed].map(([frame, list]) => `${frame} ${list.join(' ')}`).join('; ')}`);

const speech = await new EspeakSpeechEngine().synthesize(speechScriptOf(VISEME_SENTENCE), { id: 'espeak:en-us+f5' }, root);
const timing = clipTiming(speech.durationSeconds, {});
const mouth = footageMouthFrames(speech, timing, manifest);
const height = botHeightFor(frameSizeOf({ aspectRatio: '16:9', resolution: '720p' }), 'center', 'large', manifest);
const rig = await FootageRig.open(dir, manifest, height, false);
/** The atlas's sheet, for the blend's mask (it follows each sample's skin beside the lips). */
const sheet = atlasSheetOf(readFileSync(join(dir, footage.atlas)));
const { width, height: h } = rig;
// The decoders' time budget follows the clip's length; the landmark net on every frame is far slower than a render.
const budgetSeconds = timing.totalSeconds * 40;
const originals = readFootage(join(dir, footage.loop.file), rig, { loop: true, seconds: budgetSeconds });
const tracker = new FaceTracker(width, h);
// The same net on the footage's own frames (the loop, under each drawn frame).
const ownTracker = new FaceTracker(width, h);
const reach = Math.max(2, Math.round(0.1 * footage.eyePx * rig.scale));
const loopLength = footage.loop.to - footage.loop.from;
const track = (JSON.parse(readFileSync(join(dir, footage.track), 'utf8')) as number[][]).map((f) =>
  Array.from({ length: f.length / 2 }, (_, k) => ({ x: f[2 * k]!, y: f[2 * k + 1]! })),
);

const measures: (ReturnType<typeof measureMouth> | undefined)[] = [];
const rendered: Buffer[] = [];
/** The footage's own frame under each drawn one (for the picture of the strongest colour cast). */
const owns: Buffer[] = [];
const seams: { drawn: number; own: number }[] = [];
const casts: ReturnType<typeof toneCast>[] = [];
/** The seam's spread on each drawn frame (the colour match's plane falls back to the mean under 0.05²). */
const spreads: number[] = [];
/** The drawn lower jaw's width against the footage's own under it, frame by frame (1: the same face). */
const jaws: number[] = [];
const still: { drawn: number; own: number }[] = [];
const ownSteps: number[] = [];
const wraps: number[] = [];
const drawnSteps: number[] = [];
/** The atlas sample each frame showed (undefined where the frame is shown untouched). */
const shown: (MouthSample | undefined)[] = [];
let before: { drawn: Buffer; own: Buffer } | undefined;
for (let i = 0; i < timing.frames; i++) {
  const own = Buffer.from((await originals.next())!);
  const drawn = Buffer.from(await rig.render(i, mouth[i]!, budgetSeconds));
  if (!rig.drawn) {
    // A frame without a face seen is shown untouched: no mouth to measure, and no step to compare across it.
    measures.push(undefined);
    shown.push(undefined);
    rendered.push(drawn);
    before = undefined;
    continue;
  }
  const { landmarks, sample } = rig.drawn;
  shown.push(sample);
  const tracked = await tracker.next(rgbOf(drawn));
  measures.push(tracked.landmarks ? measureMouth(tracked.landmarks) : undefined);
  const ownRead = (await ownTracker.next(rgbOf(own))).landmarks;
  // The lower jaw's width (landmarks 5 and 11, at the chin's sides) as the net reads the drawn frame and the footage's own.
  const jawWidth = (points: readonly { x: number; y: number }[]) => Math.hypot(points[11]!.x - points[5]!.x, points[11]!.y - points[5]!.y);
  if (tracked.landmarks && ownRead) jaws.push(jawWidth(tracked.landmarks) / jawWidth(ownRead));
  // The blend's own scale: face space is the atlas's (footage.eyePx), whatever size the frame is drawn at.
  const placed = { width, height: h, landmarks, reference: footage.reference, eyePx: footage.eyePx, sample, sheet, frame: own };
  const weights = blendWeights(placed);
  spreads.push(seamSpread(placed));
  seams.push({ drawn: seamStep(drawn, weights, width, h, reach), own: seamStep(own, weights, width, h, reach) });
  casts.push(toneCast(drawn, own, weights, width, mouthBox(landmarks, footage.eyePx * rig.scale, width, h)));
  if (before) {
    ownSteps.push(frameChange(before.own, own, width, h));
    const step = frameChange(before.drawn, drawn, width, h);
    if (i % loopLength === 0) wraps.push(step);
    else drawnSteps.push(step);
    const held = mouth[i]!.frame === mouth[i - 1]!.frame && !mouth[i]!.toward && !mouth[i - 1]!.toward;
    const box = mouthBox(landmarks, footage.eyePx * rig.scale, width, h);
    if (held) still.push({ drawn: frameChange(before.drawn, drawn, width, h, box), own: frameChange(before.own, own, width, h, box) });
  }
  before = { drawn, own };
  rendered.push(drawn);
  owns[i] = own;
}
originals.close();
rig.close();

const ownClosed = await ownClosedLips();
const bilabials = bilabialOpenings(speech.phonemes ?? [], measures, FPS);
const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
console.log(
  `m/b/p with the lips closed: ${closedCount(bilabials)} of ${bilabials.length} (smallest openings ${bilabials.map((b) => b.opening?.toFixed(3) ?? '-').join(' ')})`,
);
// Which closed sample each was laid with (its opening as the preparation measured it), to trace a miss to the atlas or the net.
console.log(
  `m/b/p's samples (the preparation's opening, on the sound's first frame): ${bilabials.map((b) => shown[Math.min(shown.length - 1, Math.round(b.atSeconds * FPS))]?.opening.toFixed(3) ?? '-').join(' ')}`,
);
// The net's own spread on this person: what it reads on the recording's frames where the preparation saw the lips
// closed (its smoothed track under CLOSED_OPENING), the whole recording at the drawn size, frames without a face left out.
const ownBar = Math.max(CLOSED_OPENING, quantile(ownClosed, 0.9));
console.log(
  `the net on the recording's own frames where the preparation saw the lips closed: median ${quantile(ownClosed, 0.5).toFixed(3)}, ` +
    `90th percentile ${quantile(ownClosed, 0.9).toFixed(3)}, ${ownClosed.filter((o) => o < CLOSED_OPENING).length} of ${ownClosed.length} under ${CLOSED_OPENING}; ` +
    `m/b/p at most as open as the person's own closed lips read (under ${ownBar.toFixed(3)}): ${closedCount(bilabials, ownBar)} of ${bilabials.length}`,
);
const round = roundedAgainstSpread(speech.phonemes ?? [], measures, FPS);
console.log(
  `"oo" vs "ee": opening ${round.oo.toFixed(3)} / ${round.ee.toFixed(3)} = ${round.ratio.toFixed(2)}; width ${round.ooWidth.toFixed(3)} / ${round.eeWidth.toFixed(3)} (eye distances, ${round.sounds.join(' and ')} sounds)`,
);
// Why a sound reads as it does: the mouth the lip sync planned on its middle frame, the sample laid, the net's reading.
for (const [name, ipa] of [
  ['oo', /^uː?$/],
  ['ee', /^iː?$/],
] as const) {
  const frames = (speech.phonemes ?? [])
    .filter((p) => ipa.test(p.ipa))
    .map((p) => Math.floor(((p.startSeconds + p.endSeconds) / 2) * FPS))
    .map((f) => {
      const planned = mouth[f]!;
      const mix = planned.toward ? ` -> ${planned.toward.frame} ${planned.toward.amount}` : '';
      return `frame ${f} ${planned.frame}${mix}: sample ${shown[f]?.frame ?? '-'} ${shown[f]?.opening.toFixed(3) ?? '-'}, read ${measures[f]?.opening.toFixed(3) ?? '-'}`;
    });
  console.log(`"${name}" sounds (planned mouth, atlas sample's opening, the net's opening): ${frames.join('; ')}`);
}
console.log(
  `seam step: drawn ${mean(seams.map((s) => s.drawn)).toFixed(2)}, the footage's own ${mean(seams.map((s) => s.own)).toFixed(2)} (levels of 255)`,
);
console.log(
  `seam's spread (the narrower eigenvalue of its points' covariance in face space; the colour match's plane needs 0.0025): least ${Math.min(...spreads).toFixed(4)}, median ${quantile(spreads, 0.5).toFixed(4)} (${spreads.length} frames)`,
);
/** A frame's cast: its larger side's largest channel. */
const castSize = casts.map((c) => Math.max(...c.left.map(Math.abs), ...c.right.map(Math.abs)));
const meanCast = (side: 'left' | 'right') => [0, 1, 2].map((c) => mean(casts.map((k) => k[side][c]!)).toFixed(1)).join(', ');
console.log(
  `colour cast outside the lips where the blend is at least half on, drawn less the footage's own (R, G, B, levels of 255), each side of the mouth apart: ` +
    `mean left ${meanCast('left')}, right ${meanCast('right')}; the larger side's largest channel: median ${quantile(castSize, 0.5).toFixed(1)}, 95th percentile ${quantile(castSize, 0.95).toFixed(1)}`,
);
console.log(
  `lower jaw's width, drawn / the footage's own (the landmark net on both): median ${quantile(jaws, 0.5).toFixed(3)}, ` +
    `5th-95th percentile ${quantile(jaws, 0.05).toFixed(3)}-${quantile(jaws, 0.95).toFixed(3)} (${jaws.length} frames)`,
);
console.log(
  `mouth change while a shape holds: drawn ${mean(still.map((s) => s.drawn)).toFixed(2)}, the footage's own ${mean(still.map((s) => s.own)).toFixed(2)} (${still.length} frame pairs)`,
);
console.log(
  `loop wraps: ${wraps.map((w) => w.toFixed(2)).join(' ') || 'none in this clip'}; the footage's own frame-to-frame change median ${quantile(ownSteps, 0.5).toFixed(2)}, 95th percentile ${quantile(ownSteps, 0.95).toFixed(2)}, ` +
    `largest ${Math.max(...ownSteps).toFixed(2)}; the drawn clip's own (wraps left out: the speaking mouth included) 95th percentile ${quantile(drawnSteps, 0.95).toFixed(2)}, largest ${Math.max(...drawnSteps).toFixed(2)}`,
);

if (values.keep) {
  mkdirSync(values.keep, { recursive: true });
  // The frame of the strongest colour cast beside the footage's own frame under it, and any frames asked for.
  const drawnFrames = rendered.flatMap((frame, i) => (owns[i] ? [i] : []));
  const worst = drawnFrames[castSize.indexOf(Math.max(...castSize))];
  const asked = (values.frames ?? '').split(',').filter(Boolean).map(Number);
  for (const [name, f] of [['cast', worst], ...asked.map((n) => ['frame', n] as const)] as const) {
    if (f === undefined) continue;
    if (!owns[f]) {
      console.log(`frame ${f}: not drawn with a face in this clip (${rendered.length} frames), not written`);
      continue;
    }
    const png = new PNG({ width: 2 * width, height: h });
    for (let y = 0; y < h; y++) {
      rendered[f]!.copy(png.data, y * 8 * width, y * 4 * width, (y + 1) * 4 * width);
      owns[f]!.copy(png.data, y * 8 * width + 4 * width, y * 4 * width, (y + 1) * 4 * width);
    }
    writeFileSync(join(values.keep, `${name}-frame${f}.png`), PNG.sync.write(png));
  }
  // The lower face of the frame where each bilabial was most closed, side by side.
  for (const [k, b] of bilabials.entries()) {
    const f = Math.min(rendered.length - 1, Math.round(b.atSeconds * FPS));
    const png = new PNG({ width, height: h });
    rendered[f]!.copy(png.data);
    writeFileSync(join(values.keep, `bilabial-${k}-${b.ipa}-frame${f}.png`), PNG.sync.write(png));
  }
}
rmSync(root, { recursive: true, force: true });

/** The net's opening on every frame of the recording whose smoothed track the preparation measured closed. */
async function ownClosedLips(): Promise<number[]> {
  const reader = readFootage(join(dir, footage.file), rig, { loop: false, seconds: (footage.frames / footage.fps) * 40 });
  const net = new FaceTracker(width, h);
  const unseen = new Set((footage.unseen ?? []).flatMap(([from, to]) => Array.from({ length: to - from }, (_, k) => from + k)));
  const openings: number[] = [];
  for (let f = 0; f < footage.frames; f++) {
    const frame = await reader.next();
    if (!frame) break;
    const read = (await net.next(rgbOf(Buffer.from(frame)))).landmarks;
    if (read && !unseen.has(f) && measureMouth(track[f]!).opening < CLOSED_OPENING) openings.push(measureMouth(read).opening);
  }
  reader.close();
  return openings;
}
