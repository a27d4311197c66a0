/**
 * A video bot drawn by the real render path and measured on its frames (docs/video-bots.md, "Measured" and "Test
 * material"). The look is prepared, as a caller's would be, from test/fixtures/footage/person.mp4 (a real person
 * speaking, with a listening pause), or from VIDBOT_TEST_RECORDING when it names another recording.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechScriptOf } from '#domain/lexicon';
import type { BotManifest, MouthSample } from '#domain/look';
import { frameSizeOf } from '#domain/shape';
import { cutFootage, readFootage } from '#functions/media/footage-media.ts';
import { runFfmpeg } from '#functions/media/media.ts';
import { measureMouth } from '#functions/prepare/footage/mouth-measures.ts';
import { FaceTracker } from '#functions/prepare/footage/track.ts';
import { clipTiming } from '#functions/render/engine/clip-timeline.ts';
import { fullFootageBox } from '#functions/render/engine/footage/footage-bot.ts';
import { SWITCH_FRAMES } from '#functions/render/engine/footage/footage-listening.ts';
import { MAX_KEPT_LOOP_BYTES } from '#functions/render/engine/footage/footage-loop.ts';
import { footageMouthFrames } from '#functions/render/engine/footage/footage-mouth.ts';
import { FootageRig } from '#functions/render/engine/footage/footage-rig.ts';
import { atlasSheetOf, blendWeights, seamMismatches } from '#functions/render/engine/footage/mouth-blend.ts';
import { pickSample } from '#functions/render/engine/footage/mouth-samples.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { FPS, SpeechLongerThanRecordingError } from '#functions/render/engine/types.ts';
import { renderFailure } from '#functions/render/render-failure.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import {
  bilabialOpenings,
  closedCount,
  frameChange,
  mouthBox,
  quantile,
  rgbOf,
  roundedAgainstSpread,
  seamStep,
  VISEME_SENTENCE,
} from '#infra/scripts/support/footage-measures.ts';
import { testFootageLook } from '../../support/footage.ts';
import { frameRgb } from '../../support/render-media.ts';

let root: string;
let look: { dir: string };
let manifest: BotManifest;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-footage-rig-'));
  look = await testFootageLook(root);
  manifest = JSON.parse(readFileSync(join(look.dir, 'manifest.json'), 'utf8')) as BotManifest;
}, 900_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bot = { uid: 'me', name: 'Me', description: '', voice: { espeak: 'espeak:en-us+f5' }, defaultPosition: 'center' as const, look: 'footage' };

describe('a video bot through the render path', () => {
  it('renders a clip with its footage: the card in a 16:9 frame, and `full` filling a frame of the recording’s aspect', async () => {
    const clip = (size: 'medium' | 'full', frame: ReturnType<typeof frameSizeOf>) =>
      renderClip({
        bot,
        text: 'Peter and Bob.',
        voice: { id: 'espeak:en-us+f5' },
        position: 'center',
        botSize: size,
        removeBotBackground: false,
        backgroundVolume: 0,
        transitions: {},
        frame,
        mode: 'video',
        workDir: mkdtempSync(join(root, 'clip-')),
        lookDirectory: look.dir,
        speech: new EspeakSpeechEngine(),
      });
    const wide = frameSizeOf({ aspectRatio: '16:9', resolution: '360p' });
    const card = await clip('medium', wide);
    expect(card.durationSeconds).toBeGreaterThan(0.5);
    const { stdout } = await runFfmpeg(['-i', card.path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
      budgetSeconds: 60,
      captureStdout: true,
    });
    expect(stdout.length).toBe(wide.width * wide.height * 3);
    // A frame of the recording's own aspect (its width and height as they are): `full` fills it, edge to edge.
    const own = { width: manifest.width, height: manifest.height };
    expect(fullFootageBox(own, 'center', manifest)).toEqual({ x: 0, y: 0, ...own });
    const full = await clip('full', own);
    const rgb = await frameRgb(full.path, 0.5, own.width, own.height);
    const footageFrame = await readFootage(join(look.dir, manifest.footage!.loop.file), own, { loop: false, seconds: 10 }).next();
    // Its top-left corner is the recording's (no card, no rounded corner, no background), within the codec's error.
    const at = (x: number, y: number) => (y * own.width + x) * 3;
    for (const [x, y] of [
      [2, 2],
      [own.width - 3, 2],
    ])
      expect(Math.abs(rgb[at(x!, y!)]! - footageFrame![(y! * own.width + x!) * 4]!)).toBeLessThan(24);
  }, 600_000);
});

describe('the footage rig speaking', () => {
  it('closes the lips on at least 9 of the 10 m/b/p of the viseme sentence, read by the landmark net on the drawn frames', async () => {
    const footage = manifest.footage!;
    const speech = await new EspeakSpeechEngine().synthesize(
      speechScriptOf(VISEME_SENTENCE),
      { id: 'espeak:en-us+f5' },
      mkdtempSync(join(root, 'speech-')),
    );
    const timing = clipTiming(speech.durationSeconds, {});
    const mouth = footageMouthFrames(speech, timing, manifest);
    const rig = await FootageRig.open(look.dir, manifest, 480, false);
    const tracker = new FaceTracker(rig.width, rig.height);
    const measures: (ReturnType<typeof measureMouth> | undefined)[] = [];
    try {
      for (let i = 0; i < timing.frames; i++) {
        const drawn = await rig.render(i, mouth[i]!, timing.totalSeconds * 40);
        const read = (await tracker.next(rgbOf(drawn))).landmarks;
        measures.push(read ? measureMouth(read) : undefined);
      }
    } finally {
      rig.close();
    }
    const bilabials = bilabialOpenings(speech.phonemes ?? [], measures, FPS);
    const round = roundedAgainstSpread(speech.phonemes ?? [], measures, FPS);
    console.log(
      `m/b/p closed ${closedCount(bilabials)} of ${bilabials.length} (${bilabials.map((b) => b.opening?.toFixed(3) ?? '-').join(' ')}); ` +
        `"oo" / "ee" opening ${round.ratio.toFixed(2)} (${footage.samples.some((s) => s.frame.startsWith('r')) ? 'rounded samples in the atlas' : 'no rounded sample in the atlas'})`,
    );
    expect(bilabials).toHaveLength(10);
    expect(closedCount(bilabials)).toBeGreaterThanOrEqual(9);
  }, 600_000);
});

describe('the footage rig measured against the footage', () => {
  it('keeps the seam, the held mouth and the loop’s wrap within what the footage itself shows', async () => {
    const footage = manifest.footage!;
    const rig = await FootageRig.open(look.dir, manifest, 600, false);
    const sheet = atlasSheetOf(readFileSync(join(look.dir, footage.atlas)));
    const loopLength = footage.loop.to - footage.loop.from;
    const frames = loopLength + 20;
    const seconds = 10 * (frames / 30);
    const originals = readFootage(join(look.dir, footage.loop.file), rig, { loop: true, seconds });
    const eyePx = footage.eyePx * rig.scale;
    const seams: number[][] = [];
    const held: number[][] = [];
    const ownSteps: number[] = [];
    let wrap = { drawn: 0, own: 0 };
    let before: { drawn: Buffer; own: Buffer } | undefined;
    for (let i = 0; i < frames; i++) {
      const own = Buffer.from((await originals.next())!);
      // One shape held throughout (a listening mouth): the mouth must be as still as the footage's.
      const drawn = Buffer.from(await rig.render(i, { frame: 'm0' }, seconds));
      const { landmarks, sample } = rig.drawn!;
      // The blend's own mask: face space is the atlas's (footage.eyePx), whatever size the frame is drawn at.
      const weights = blendWeights({
        width: rig.width,
        height: rig.height,
        landmarks,
        reference: footage.reference,
        eyePx: footage.eyePx,
        sample,
        sheet,
        frame: own,
      });
      const reach = Math.max(2, Math.round(0.1 * eyePx));
      seams.push([seamStep(drawn, weights, rig.width, rig.height, reach), seamStep(own, weights, rig.width, rig.height, reach)]);
      if (before) {
        const box = mouthBox(landmarks, eyePx, rig.width, rig.height);
        held.push([frameChange(before.drawn, drawn, rig.width, rig.height, box), frameChange(before.own, own, rig.width, rig.height, box)]);
        ownSteps.push(frameChange(before.own, own, rig.width, rig.height));
        if (i === loopLength) wrap = { drawn: frameChange(before.drawn, drawn, rig.width, rig.height), own: ownSteps.at(-1)! };
      }
      before = { drawn, own };
    }
    originals.close();
    rig.close();
    const mean = (rows: number[][], k: number) => rows.reduce((s, r) => s + r[k]!, 0) / rows.length;
    // The seam: its colour step no larger than the footage's own across the same line.
    expect(mean(seams, 0)).toBeLessThanOrEqual(mean(seams, 1) * 1.05);
    // Stillness: the held mouth changes no more from frame to frame than the footage's own mouth region.
    expect(mean(held, 0)).toBeLessThanOrEqual(mean(held, 1) * 1.05);
    // The loop: the rig adds nothing at its wrap (the change there is the loop file's own), and the loop file's wrap,
    // crossfaded, is far smaller than the cut between the recording's frames it joins (`to - 1` and `from`).
    expect(wrap.drawn).toBeLessThanOrEqual(wrap.own * 1.05);
    const cut = await recordingCut(footage, rig);
    expect(wrap.own).toBeLessThan(cut * 0.75);
    console.log(
      `seam ${mean(seams, 0).toFixed(2)} (footage ${mean(seams, 1).toFixed(2)}); held mouth ${mean(held, 0).toFixed(2)} (footage ${mean(held, 1).toFixed(2)}); ` +
        `wrap ${wrap.drawn.toFixed(2)} (the loop file's own ${wrap.own.toFixed(2)}, a cut with no crossfade ${cut.toFixed(2)}; the footage's steps: 95th percentile ${quantile(ownSteps, 0.95).toFixed(2)}, largest ${Math.max(...ownSteps).toFixed(2)})`,
    );
  }, 600_000);

  it('switches to the listening loop and back without a jump, each loop going on where it was left, the person’s own mouth shown while listening', async () => {
    const footage = manifest.footage!;
    // The recording's own listening loop; for a recording without a listening stretch (VIDBOT_TEST_RECORDING), frames
    // far from the base loop's start stand in for one, cut as the preparation cuts a listening loop.
    const stand = !footage.listen;
    const standIn = { file: 'listen-test.mp4', from: footage.frames - 100, to: footage.frames - 10, blend: 10 };
    if (stand) await cutFootage(join(look.dir, footage.file), footage.fps, standIn, join(look.dir, standIn.file));
    const listen = footage.listen ?? standIn;
    const withListening: BotManifest = { ...manifest, footage: { ...footage, listen } };
    const rig = await FootageRig.open(look.dir, withListening, 400, false);
    const speakingOwn = readFootage(join(look.dir, footage.loop.file), rig, { loop: true, seconds: 60 });
    const listeningOwn = readFootage(join(look.dir, listen.file), rig, { loop: true, seconds: 60 });
    // 30 frames speaking, a switch, 30 listening, a switch back, 30 speaking.
    const ramp = SWITCH_FRAMES + 1;
    const plan = [
      ...Array<number>(30).fill(0),
      ...Array.from({ length: SWITCH_FRAMES }, (_, k) => (k + 1) / ramp),
      ...Array<number>(30).fill(1),
      ...Array.from({ length: SWITCH_FRAMES }, (_, k) => (SWITCH_FRAMES - k) / ramp),
      ...Array<number>(30).fill(0),
    ];
    const above = (frame: Buffer) => frame.subarray(0, rig.width * Math.floor(rig.height * 0.3) * 4);
    // The footage's own frame-to-frame change: every step of both loops, as the bot shows them.
    const ownSteps: number[] = [];
    for (const loop of [footage.loop, listen]) {
      const frames = readFootage(join(look.dir, loop.file), rig, { loop: false, seconds: 60 });
      for (let previous = await frames.next(), next = await frames.next(); previous && next; previous = next, next = await frames.next())
        ownSteps.push(frameChange(Buffer.from(previous), next, rig.width, rig.height));
      frames.close();
    }
    const steps: number[] = [];
    let before: Buffer | undefined;
    let hardCut = 0;
    for (let i = 0; i < plan.length; i++) {
      const listening = plan[i]!;
      const speakingFrame = listening < 1 ? Buffer.from((await speakingOwn.next())!) : undefined;
      const listeningFrame = listening > 0 ? Buffer.from((await listeningOwn.next())!) : undefined;
      const drawn = Buffer.from(await rig.render(i, { frame: 'm0' }, 60, listening));
      // A frame of one loop alone is that loop's own next frame: the speaking loop goes on where it was left (above
      // the nose: a mouth is laid below), the listening loop shows while the bot is silent, with the person's own
      // closed mouth (nothing laid).
      if (listening === 0) expect(above(drawn).equals(above(speakingFrame!)), `frame ${i} speaking`).toBe(true);
      if (listening === 1) expect(drawn.equals(listeningFrame!), `frame ${i} listening`).toBe(true);
      if (speakingFrame && listeningFrame) hardCut = Math.max(hardCut, frameChange(speakingFrame, listeningFrame, rig.width, rig.height));
      if (before) steps.push(frameChange(before, drawn, rig.width, rig.height));
      before = drawn;
    }
    speakingOwn.close();
    listeningOwn.close();
    rig.close();
    const switches = [...steps.slice(29, 30 + SWITCH_FRAMES), ...steps.slice(69, 70 + SWITCH_FRAMES)];
    const ownLargest = Math.max(...ownSteps);
    console.log(
      `switch steps at most ${Math.max(...switches).toFixed(2)}; a cut between the loops ${hardCut.toFixed(2)}; the footage's own steps at most ${ownLargest.toFixed(2)}; ${stand ? 'a stand-in listening loop' : 'the recording’s own listening loop'}`,
    );
    // A cut from one loop to the other would be a jump (the stand-in's loops are chosen so); crossfaded, every step
    // of the switch is one the footage makes.
    if (stand) expect(hardCut).toBeGreaterThan(ownLargest);
    expect(Math.max(...switches)).toBeLessThanOrEqual(ownLargest);
  }, 300_000);

  it('plays the recording as recorded: from its first frame, in order, never looped, and refuses a clip longer than it', async () => {
    const footage = manifest.footage!;
    const rig = await FootageRig.open(look.dir, manifest, 400, false, 'as_recorded');
    const originals = readFootage(join(look.dir, footage.file), rig, { loop: false, seconds: 60 });
    // Above the nose the picture is the recording's own frame of the same moment, untouched.
    const above = (frame: Buffer) => frame.subarray(0, rig.width * Math.floor(rig.height * 0.3) * 4);
    const frames = 45;
    for (let i = 0; i < frames; i++) {
      const own = Buffer.from((await originals.next())!);
      const drawn = await rig.render(i, { frame: i % 10 < 5 ? 'm0' : 'm2' }, 60);
      expect(rig.drawn!.landmarks).toBeDefined();
      expect(above(drawn).equals(above(own)), `frame ${i}`).toBe(true);
    }
    originals.close();
    rig.close();
    // 30 fps footage: a clip of every frame of the recording fits; one frame more is refused, as is a clip past it.
    expect(footage.fps).toBe(30);
    expect(() => rig.ensureCovers(footage.frames)).not.toThrow();
    expect(() => rig.ensureCovers(footage.frames + 1)).toThrow(SpeechLongerThanRecordingError);
    const failure = renderFailure(new SpeechLongerThanRecordingError(12.3, 10.5), { videoId: 'v', clipIndex: 0 }, undefined);
    expect(failure).toMatchObject({ code: 'speech_longer_than_recording' });
  }, 300_000);

  it('shows a frame with no face seen facing the camera untouched, as recorded and in the loop: no mouth laid on it', async () => {
    const footage = manifest.footage!;
    const sheet = atlasSheetOf(readFileSync(join(look.dir, footage.atlas)));
    expect(footage.unseen).toEqual([]);
    // The person is seen on every frame; frames 5-14 (and the loop's first 10) are declared unseen, as a gap would be.
    const from = footage.loop.from;
    const unseen: Array<[number, number]> = [
      [5, 15],
      [from, from + 10],
    ];
    const withGaps: BotManifest = { ...manifest, footage: { ...footage, unseen } };
    for (const [play, file, first] of [
      ['as_recorded', footage.file, 0],
      ['loop', footage.loop.file, from],
    ] as const) {
      const rig = await FootageRig.open(look.dir, withGaps, 400, false, play);
      const originals = readFootage(join(look.dir, file), rig, { loop: false, seconds: 60 });
      let mouthed = 0;
      const shown: MouthSample[] = [];
      let previousGap = false;
      for (let i = 0; i < 25; i++) {
        const own = Buffer.from((await originals.next())!);
        const drawn = await rig.render(i, { frame: 'm2' }, 60);
        const source = first + i;
        const gap = unseen.some(([a, b]) => source >= a && source < b);
        const firstAfterGap = previousGap && !gap;
        previousGap = gap;
        if (gap) {
          expect(drawn.equals(own), `${play} frame ${i}`).toBe(true);
          expect(rig.drawn).toBeUndefined();
        } else if (!drawn.equals(own)) mouthed++;
        if (play !== 'as_recorded' || (i !== 0 && !firstAfterGap)) continue;
        // After the gap the held shape's sample is chosen afresh, for the frame it is laid on: the best of the shape's
        // samples along that frame's seam (here not the one chosen on frame 0).
        const { landmarks, sample } = rig.drawn!;
        const score = (candidates: readonly MouthSample[]) =>
          seamMismatches(
            { frame: own, width: rig.width, height: rig.height, landmarks, reference: footage.reference, eyePx: footage.eyePx, sheet },
            candidates,
          );
        expect(sample, `frame ${i}`).toEqual(pickSample(footage.samples, 'm2', score));
        shown.push(sample);
      }
      if (play === 'as_recorded') {
        expect(shown).toHaveLength(2);
        expect(shown[1]).not.toEqual(shown[0]);
      }
      // The frames seen still get their mouth.
      expect(mouthed, play).toBeGreaterThan(0);
      originals.close();
      rig.close();
    }
  }, 300_000);

  it('lays the loop it kept from its first time round as the footage decoded afresh, frame for frame, two and a half times round', async () => {
    const footage = manifest.footage!;
    const period = footage.loop.to - footage.loop.from;
    // Every frame declared unseen: no mouth is laid, so the rig's frames are the loop's own as it shows them.
    const bare: BotManifest = { ...manifest, footage: { ...footage, unseen: [[0, footage.frames]] } };
    const rig = await FootageRig.open(look.dir, bare, 240, false, 'loop');
    const originals = readFootage(join(look.dir, footage.loop.file), rig, { loop: true, seconds: 60 });
    try {
      expect(MAX_KEPT_LOOP_BYTES).toBeGreaterThan(4 * rig.width * rig.height * period);
      for (let i = 0; i < 2.5 * period; i++) {
        const own = Buffer.from((await originals.next())!);
        const drawn = await rig.render(i, { frame: 'm2' }, 60);
        if (!drawn.equals(own)) throw new Error(`frame ${i} (time round ${Math.floor(i / period) + 1}) differs from the loop decoded afresh`);
        // The frame handed out is the caller's: changing it leaves the kept one as it was.
        drawn.fill(0);
      }
    } finally {
      originals.close();
      rig.close();
    }
  }, 300_000);
});

/** The change between the recording's frames `to - 1` and `from` of the base loop: its wrap were it cut, not crossfaded. */
async function recordingCut(footage: NonNullable<BotManifest['footage']>, size: { width: number; height: number }): Promise<number> {
  const frames = readFootage(join(look.dir, footage.file), size, { loop: false, seconds: 60 });
  let from: Buffer | undefined;
  let last: Buffer | undefined;
  try {
    for (let i = 0; i < footage.loop.to; i++) {
      const pixels = await frames.next();
      if (!pixels) throw new Error(`the recording ends before frame ${i}`);
      if (i === footage.loop.from) from = Buffer.from(pixels);
      if (i === footage.loop.to - 1) last = Buffer.from(pixels);
    }
  } finally {
    frames.close();
  }
  return frameChange(last!, from!, size.width, size.height);
}
