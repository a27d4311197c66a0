/**
 * `npx tsx infra/scripts/measure/kept-rig.ts [-- --rounds 2]`: what drawing the ordinary request's presenter costs a
 * render function with a new rig for every clip, against the rig kept from the last clip
 * (functions/render/engine/rigs/rig.ts). Four clips in turn, as the bench's ordinary rows: the first video's words,
 * then the three warm videos' other words (bench/support.ts otherWords). Every frame is drawn as the render pipes
 * it; each clip's figure is this process's CPU (its threads, the garbage collector's included) from the presenter's
 * making to its last frame. The two ways alternate for `--rounds`; the speech is synthesised once beforehand, not
 * counted. Checks that both ways draw the same frames.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_BOTS } from '#domain/bot';
import { speechScriptOf } from '#domain/lexicon';
import { voiceToSpeak } from '#domain/voices';
import { clipTiming } from '#functions/render/engine/clip-timeline.ts';
import { presenterFor } from '#functions/render/engine/presenter.ts';
import { rigFor } from '#functions/render/engine/rigs/rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import type { SpeechResult, VideoClipInput } from '#functions/render/engine/types.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { median } from '../bench/report.ts';
import { argument, loadAverage, ORDINARY_TEXT, otherWords } from '../bench/support.ts';

const rounds = Number(argument('rounds') ?? 2);
const ava = BUILT_IN_BOTS.find((bot) => bot.look === 'ava')!;
const voice = voiceToSpeak(ava.voice, undefined, { polly: false });
const transitions = { entry: 'fade_in', exit: 'fade_out' } as const;
const texts = [ORDINARY_TEXT, otherWords(0), otherWords(1), otherWords(2)];
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Draws one clip's frames; `keep` hands the rig back for the next clip, as renderClip does. */
async function drawClip(text: string, speech: SpeechResult, work: string, keep: boolean) {
  const input: VideoClipInput = {
    bot: ava,
    text,
    voice,
    position: 'bottom-right',
    botSize: 'medium',
    removeBotBackground: false,
    backgroundVolume: 0.1,
    transitions,
    frame: { width: 1280, height: 720 },
    mode: 'video',
    workDir: work,
    speech: new EspeakSpeechEngine(),
  };
  const timing = clipTiming(speech.durationSeconds, transitions);
  const before = cpu();
  const presenter = await presenterFor(input, speech, timing);
  const hash = createHash('sha256');
  for (let i = 0; i < timing.frames; i++) hash.update(await presenter.frame(i));
  const seconds = cpu() - before;
  if (keep) presenter.close?.();
  return { seconds, hash: hash.digest('hex') };
}

const work = mkdtempSync(join(tmpdir(), 'vidbot-kept-rig-'));
try {
  const engine = new EspeakSpeechEngine();
  const speeches: SpeechResult[] = [];
  for (const text of texts) speeches.push(await engine.synthesize(speechScriptOf(text), voice, mkdtempSync(join(work, 'speech-'))));
  const ways = { 'a new rig for every clip': false, 'the kept rig': true } as const;
  const figures = new Map<string, number[][]>(Object.keys(ways).map((way) => [way, texts.map(() => [])]));
  const hashes = new Map<string, string>();
  // One clip of each way first: the look's sprites scaled, the code compiled.
  await drawClip(texts[0]!, speeches[0]!, work, false);
  for (let round = 0; round < rounds; round++) {
    for (const [way, keep] of Object.entries(ways)) {
      // Nothing kept from the way before: asking for another size's rig lets the kept one go.
      rigFor(loadSprites('ava', 100), { withPanel: true });
      for (const [i, text] of texts.entries()) {
        const { seconds, hash } = await drawClip(text, speeches[i]!, work, keep);
        figures.get(way)![i]!.push(seconds);
        if ((hashes.get(text) ?? hash) !== hash) throw new Error(`clip ${i} drew other frames with ${way}`);
        hashes.set(text, hash);
      }
    }
  }
  console.log(`the ordinary request's presenter (Ava medium, 16:9 720p), CPU s per clip, median of ${rounds} round(s):`);
  for (const [way, perClip] of figures) {
    console.log(
      `  ${way.padEnd(26)} ${perClip.map((values, i) => `${i === 0 ? 'first' : `warm-${i - 1}`} ${median(values).toFixed(3)}`).join(', ')}`,
    );
  }
  console.log(`both ways drew the same frames; load average ${loadAverage()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
