/**
 * `npm run voices:wer`: how well CMU pocketsphinx understands each built-in bot's offline (espeak-ng) voice, and how
 * much CPU the engine spends per second of its speech (infra/voices/wer.ts says what is spoken and how the
 * recogniser is constrained). Needs Debian's `pocketsphinx pocketsphinx-en-us`.
 *
 *   npm run voices:wer                                   the built-in bots, as they speak
 *   npm run voices:wer -- --voices espeak:en-us+f5,espeak:en-us+m6 --rates 145,160 --pitches 40,55
 *                                                        every voice x rate x pitch (a grid to choose from)
 *   npm run voices:wer -- --model general                with Debian's general en-us language model instead
 *
 * Prints a Markdown table: voice, rate (words per minute), pitch (0-99), WER, CPU seconds per second of speech.
 */
import { parseArgs } from 'node:util';
import { BUILT_IN_BOTS } from '#domain/bot';
import { findVoice, type SpeechVoice } from '#domain/voices';
import { measureVoice, pocketsphinxInstalled, type RecogniserModel, TEST_SENTENCES } from '../../voices/wer.ts';

const { values } = parseArgs({
  options: {
    voices: { type: 'string' },
    rates: { type: 'string' },
    pitches: { type: 'string' },
    model: { type: 'string', default: 'vocabulary' },
    heard: { type: 'boolean', default: false },
  },
});
const model = values.model as RecogniserModel;
if (model !== 'vocabulary' && model !== 'general') throw new Error('--model is vocabulary or general');
if (!(await pocketsphinxInstalled())) {
  console.error('pocketsphinx is not installed: apt-get install -y pocketsphinx pocketsphinx-en-us');
  process.exit(1);
}

const numbers = (list: string | undefined) => list?.split(',').map(Number);
interface Row {
  label: string;
  voice: SpeechVoice;
}
let rows: Row[];
if (values.voices) {
  const rates = numbers(values.rates) ?? [undefined];
  const pitches = numbers(values.pitches) ?? [undefined];
  rows = values.voices.split(',').flatMap((id) => {
    if (!findVoice(id, { polly: false })?.id.startsWith('espeak:')) throw new Error(`not an espeak-ng voice of the catalog: ${id}`);
    return rates.flatMap((rate) => pitches.map((pitch) => ({ label: '', voice: { id, rate, pitch } })));
  });
} else
  rows = BUILT_IN_BOTS.map((bot) => ({
    label: bot.name,
    voice: { id: bot.voice.espeak, rate: bot.voice.espeakRate, pitch: bot.voice.espeakPitch },
  }));

const words = TEST_SENTENCES.join(' ').split(/\s+/).length;
console.log(
  `pocketsphinx (${model === 'vocabulary' ? 'closed vocabulary word loop' : 'general en-us model'}), ${TEST_SENTENCES.length} sentences, ${words} words\n`,
);
console.log('| Bot | Voice | Rate | Pitch | WER | CPU s per s of speech |');
console.log('|---|---|---|---|---|---|');
for (const { label, voice } of rows) {
  const measured = await measureVoice(voice, model);
  console.log(
    `| ${label} | \`${voice.id}\` | ${voice.rate ?? 175} | ${voice.pitch ?? 50} | ${measured.wer.toFixed(2)} | ${measured.cpuPerSecond.toFixed(3)} |`,
  );
  if (values.heard) console.log(`  heard: ${measured.heard}`);
}
