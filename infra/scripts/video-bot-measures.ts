/**
 * The speaking measures of a video bot on rendered frames (docs/video-bots.md#measured): a recording becomes a
 * look, the viseme sentence is rendered with it (16:9 720p, `large`, centred), and the face-api landmark net reads
 * the mouth on every rendered frame, independently of the atlas's own measures. Prints the m/b/p closures and the
 * inner lips' opening and width on "oo" against "ee".
 *
 *   npx tsx infra/scripts/video-bot-measures.ts <recording.mp4> [--keep <dir>]
 */
import { cpSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { SpeechScript } from '../../functions/domain/lexicon.ts';
import { frameSizeOf } from '../../functions/domain/shape.ts';
import type { SpeechVoice } from '../../functions/domain/voices.ts';
import { runFfmpeg } from '../../functions/media/media.ts';
import { buildFootageLook } from '../../functions/prepare/footage/footage-look.ts';
import { CLOSED_OPENING, measureMouth } from '../../functions/prepare/footage/mouth-measures.ts';
import { FaceTracker } from '../../functions/prepare/footage/track.ts';
import { renderClip, type SpeechResult } from '../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../functions/render/speech/index.ts';

const SENTENCE = 'Mama bought a puppy. Peter, Bob and Pam. We see three. Who knew you too?';
const FPS = 30;

const { positionals, values } = parseArgs({ allowPositionals: true, options: { keep: { type: 'string' } } });
const recording = positionals[0];
if (!recording) throw new Error('usage: video-bot-measures.ts <recording> [--keep <dir>]');
const root = mkdtempSync(join(tmpdir(), 'vidbot-measures-'));

const started = Date.now();
const look = await buildFootageLook(recording, statSync(recording).size, root);
const dir = mkdtempSync(join(root, 'look-dir-'));
for (const [file, bytes] of look.files) writeFileSync(join(dir, file), bytes);
console.log(`prepared in ${((Date.now() - started) / 1000).toFixed(1)} s: ${look.manifest.footage!.samples.length} samples`);

const espeak = new EspeakSpeechEngine();
let speech: SpeechResult | undefined;
const clip = await renderClip({
  bot: { uid: 'measured', name: 'Measured', description: '', voice: { espeak: 'espeak:en-us+f5' }, defaultPosition: 'center', look: 'footage' },
  text: SENTENCE,
  voice: { id: 'espeak:en-us+f5' },
  position: 'center',
  botSize: 'large',
  removeBotBackground: false,
  backgroundVolume: 0,
  transitions: {},
  frame: frameSizeOf({ aspectRatio: '16:9', resolution: '720p' }),
  mode: 'video',
  workDir: root,
  lookDirectory: dir,
  speech: {
    name: 'espeak',
    synthesize: async (script: SpeechScript, voice: SpeechVoice, workDir: string) => (speech = await espeak.synthesize(script, voice, workDir)),
  },
});
if (values.keep) cpSync(clip.path, join(values.keep, 'measured.mp4'));

const { stdout } = await runFfmpeg(['-i', clip.path, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { budgetSeconds: 300, captureStdout: true });
const size = 1280 * 720 * 3;
const tracker = new FaceTracker(1280, 720);
const measures: (ReturnType<typeof measureMouth> | undefined)[] = [];
for (let at = 0; at + size <= stdout.length; at += size) {
  const tracked = await tracker.next(stdout.subarray(at, at + size));
  measures.push(tracked.landmarks ? measureMouth(tracked.landmarks) : undefined);
}
const phonemes = speech!.phonemes ?? [];
const framesOf = (p: { startSeconds: number; endSeconds: number }) => {
  const frames: ReturnType<typeof measureMouth>[] = [];
  for (let f = Math.floor(p.startSeconds * FPS); f <= Math.ceil(p.endSeconds * FPS) - 1; f++) if (measures[f]) frames.push(measures[f]!);
  return frames;
};
const bilabials = phonemes.filter((p) => /^[mbp]$/.test(p.ipa));
const closed = bilabials.filter((p) => Math.min(...framesOf(p).map((m) => m.opening)) < CLOSED_OPENING).length;
const middle = (ipa: RegExp) =>
  phonemes
    .filter((p) => ipa.test(p.ipa))
    .map((p) => measures[Math.floor(((p.startSeconds + p.endSeconds) / 2) * FPS)])
    .filter((m) => !!m);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
const oo = middle(/^uː?$/);
const ee = middle(/^iː?$/);
console.log(`m/b/p with the lips closed: ${closed} of ${bilabials.length}`);
console.log(
  `"oo" vs "ee": opening ${median(oo.map((m) => m.opening)).toFixed(3)} / ${median(ee.map((m) => m.opening)).toFixed(3)}; ` +
    `width ${median(oo.map((m) => m.width)).toFixed(3)} / ${median(ee.map((m) => m.width)).toFixed(3)} (eye distances, ${oo.length} and ${ee.length} sounds)`,
);
rmSync(root, { recursive: true, force: true });
