/**
 * The footage rig's own CPU over a clip of speech (docs/video-bots.md, "Render cost"): a prepared look's rig draws
 * every frame of a spoken text at a card's height (the mouth the lip sync plans, the listening loop in the silences,
 * as the render does), and the Node process's CPU is printed: the choice of samples, the blends, the loops' mixes
 * and copies. The loops' decoding is ffmpeg's, in child processes, and is not counted.
 *
 *   npx tsx infra/scripts/measure/video-bot-rig.ts <look dir> [--height 332] [--rounds 3]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { speechScriptOf } from '../../../functions/domain/lexicon.ts';
import type { BotManifest } from '../../../functions/domain/look.ts';
import { clipTiming } from '../../../functions/render/engine/clip-timeline.ts';
import { listeningOf } from '../../../functions/render/engine/footage/footage-listening.ts';
import { footageMouthFrames } from '../../../functions/render/engine/footage/footage-mouth.ts';
import { FootageRig } from '../../../functions/render/engine/footage/footage-rig.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { height: { type: 'string', default: '332' }, rounds: { type: 'string', default: '3' } },
});
const dir = positionals[0];
if (!dir) throw new Error('usage: video-bot-rig.ts <look dir> [--height 332] [--rounds 3]');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BotManifest;
const work = mkdtempSync(join(tmpdir(), 'vidbot-rig-'));
try {
  // Six sentences with a 2-s pause among them (37 s with espeak-ng's en-us+m3), as a presenter's clip has.
  const sentence = 'Welcome to the quarterly update. Our team shipped three new features this month, and customers noticed.';
  const text = `${sentence} ${sentence} <break time="2s"/> ${sentence} ${sentence} ${sentence} ${sentence}`;
  const speech = await new EspeakSpeechEngine().synthesize(speechScriptOf(text), { id: 'espeak:en-us+m3' }, work);
  const timing = clipTiming(speech.durationSeconds, {});
  const mouth = footageMouthFrames(speech, timing, manifest);
  const listening = listeningOf(speech, timing);
  for (let round = 0; round < Number(values.rounds); round++) {
    const rig = await FootageRig.open(dir, manifest, Number(values.height), true);
    const started = process.cpuUsage();
    for (let i = 0; i < timing.frames; i++) await rig.render(i, mouth[i]!, timing.totalSeconds * 4, listening[i] ?? 0);
    const { user, system } = process.cpuUsage(started);
    rig.close();
    console.log(
      `${timing.frames} frames (${timing.totalSeconds.toFixed(1)} s) at ${rig.width}x${rig.height}: Node CPU ${((user + system) / 1e6).toFixed(2)} s`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
