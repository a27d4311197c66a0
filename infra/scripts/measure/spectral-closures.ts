/**
 * `npx tsx infra/scripts/measure/spectral-closures.ts [--wav <file> --text <file> ... --voice <espeak voice> [--model en]]`:
 * how the mouth read from a recording's spectrum (render/speech/spectral-visemes.ts, the clip without its
 * transcript) closes on the m, b and p the same recording's alignment with its transcript places
 * (test/support/spectral-closures.ts). Without arguments: the five LibriVox sentences of Debian's
 * pocketsphinx-testdata, aligned by SoundSwallower. Several `--wav` and `--text` pairs are added up. The reference is only as good as the alignment: espeak-ng's
 * warp (no `--model`) places short sounds less exactly than SoundSwallower.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { speechScriptOf } from '#domain/lexicon';
import type { AlignmentLanguage } from '#domain/recordings';
import { RecordedSpeech } from '#functions/render/speech/recorded.ts';
import { librivoxSentences } from '../../../test/support/librivox.ts';
import { addedClosures, closuresText, spectralClosures } from '../../../test/support/spectral-closures.ts';

const { values } = parseArgs({
  options: {
    wav: { type: 'string', multiple: true },
    text: { type: 'string', multiple: true },
    voice: { type: 'string' },
    model: { type: 'string' },
  },
});
const recordings = values.wav
  ? values.wav.map((path, i) => ({ path, text: readFileSync(values.text![i]!, 'utf8').replace(/\s+/g, ' ').trim() }))
  : librivoxSentences();
const how = values.wav
  ? { espeakVoice: values.voice ?? 'espeak:en-us+m3', ...(values.model && { model: values.model as AlignmentLanguage }) }
  : { espeakVoice: 'espeak:en-us+m3', model: 'en' as AlignmentLanguage };
const work = mkdtempSync(join(tmpdir(), 'vidbot-spectral-closures-'));
try {
  const all = [];
  for (const [i, { path, text }] of recordings.entries()) {
    const aligned = await new RecordedSpeech(path, how).synthesize(speechScriptOf(text), { id: 'recording' }, mkdtempSync(join(work, `a${i}-`)));
    const heard = await new RecordedSpeech(path, how).synthesize(speechScriptOf(''), { id: 'recording' }, mkdtempSync(join(work, `h${i}-`)));
    all.push(spectralClosures(aligned, heard));
  }
  console.log(closuresText(addedClosures(all)));
} finally {
  rmSync(work, { recursive: true, force: true });
}
