/**
 * SSML-lite and the lexicon through real espeak-ng: a break is a silence of its length where it stands, spelling
 * and replacements are heard, and neither the markup nor a replacement reaches the words or the captions.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cuesFromWords } from '#domain/captions';
import { type LexiconEntry, speechScriptOf } from '#domain/lexicon';
import { voiceToSpeak } from '#domain/voices';
import { readWav } from '#functions/media/wav.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { ava, scratchDir } from '../../support/captions.ts';
import { silences } from '../../support/silences.ts';

const root = scratchDir('vidbot-markup-');
const voice = voiceToSpeak(ava.voice, undefined, { polly: false });
const speak = async (text: string, lexicon: LexiconEntry[] = []) => {
  const script = speechScriptOf(text, lexicon);
  const result = await new EspeakSpeechEngine().synthesize(script, voice, mkdtempSync(join(root, 'espeak-')));
  const pcm = readWav(result.wavPath);
  const shownWords = result.words.map((w) => script.shown.slice(w.start, w.end));
  return { script, result, pcm, shownWords, cues: cuesFromWords(script.shown, result.words) };
};
const longestSilence = (samples: Float32Array, sampleRate: number) =>
  silences(samples, sampleRate).gaps.reduce((best, g) => (g.end - g.start > best.end - best.start ? g : best), { start: 0, end: 0 });

describe('speech markup with espeak-ng', () => {
  it('a break is a silence at least as long as asked, between the words it stands between; words after it start after it', async () => {
    const plain = await speak('Good morning. Here is the news.');
    const broken = await speak('Good morning.<break time="1500ms"/> Here is the news.');
    const gap = longestSilence(broken.pcm.samples, broken.pcm.sampleRate);
    expect(gap.end - gap.start).toBeGreaterThanOrEqual(1.5);
    expect(broken.result.durationSeconds - plain.result.durationSeconds).toBeGreaterThan(1.2);
    expect(broken.shownWords).toEqual(['Good', 'morning.', 'Here', 'is', 'the', 'news.']);
    const [, morning, here] = broken.result.words;
    expect(morning!.endSeconds).toBeLessThanOrEqual(gap.start + 0.05);
    expect(here!.startSeconds).toBeGreaterThanOrEqual(gap.end - 0.05);
    // The mouth follows the audio: nothing sounds inside the break.
    const inside = broken.pcm.samples.subarray(
      Math.ceil((gap.start + 0.05) * broken.pcm.sampleRate),
      Math.floor((gap.end - 0.05) * broken.pcm.sampleRate),
    );
    expect(Math.max(...inside.map(Math.abs))).toBeLessThan(0.01);
    // Captions: the text without its tag, split at the break (a pause that long starts a new cue).
    expect(broken.cues.map((c) => c.lines.join(' '))).toEqual(['Good morning.', 'Here is the news.']);
  });

  it('a break mid-sentence, at the start and at the end: silences there, every word in order', async () => {
    const { result, pcm, shownWords, cues } = await speak('<break time="1s"/>One two<break time="2s"/>three four.<break time="500ms"/>');
    expect(shownWords).toEqual(['One', 'two', 'three', 'four.']);
    const { soundStart, soundEnd } = silences(pcm.samples, pcm.sampleRate);
    // Within one 10-ms analysis window.
    expect(soundStart).toBeGreaterThanOrEqual(0.99);
    expect(result.durationSeconds - soundEnd).toBeGreaterThanOrEqual(0.5);
    const gap = longestSilence(pcm.samples, pcm.sampleRate);
    expect(gap.end - gap.start).toBeGreaterThanOrEqual(2);
    expect(result.words[1]!.endSeconds).toBeLessThanOrEqual(gap.start + 0.05);
    expect(result.words[2]!.startSeconds).toBeGreaterThanOrEqual(gap.end - 0.05);
    expect(cues.map((c) => c.lines.join(' '))).toEqual(['One two', 'three four.']);
  });

  it('say-as characters spells the word (longer than read as a word), and captions show it as written', async () => {
    const read = await speak('Open the cat door.');
    const spelled = await speak('Open the <say-as interpret-as="characters">cat</say-as> door.');
    expect(spelled.result.durationSeconds).toBeGreaterThan(read.result.durationSeconds + 0.25);
    expect(spelled.cues.map((c) => c.lines.join(' '))).toEqual(['Open the cat door.']);
  });

  it('emphasis changes the sound; markup and entities never reach the captions', async () => {
    const plain = await speak('This is really important.');
    const stressed = await speak('This is <emphasis level="strong">really</emphasis> important.');
    expect(stressed.result.durationSeconds).not.toBeCloseTo(plain.result.durationSeconds, 2);
    expect(stressed.shownWords).toEqual(['This', 'is', 'really', 'important.']);
    const entities = await speak('Ben &amp; Jerry say 3 &lt; 5.');
    expect(entities.cues.map((c) => c.lines.join(' '))).toEqual(['Ben & Jerry say 3 < 5.']);
  });

  it('the lexicon: espeak-ng says the replacement, the caption shows the written word, timed over the replacement', async () => {
    const lexicon = [{ word: 'Xq', say: 'extraordinarily quick' }];
    const plain = await speak('The Xq fox jumps.');
    const replaced = await speak('The Xq fox jumps.', lexicon);
    expect(replaced.result.durationSeconds).toBeGreaterThan(plain.result.durationSeconds + 0.4);
    expect(replaced.shownWords).toEqual(['The', 'Xq', 'fox', 'jumps.']);
    expect(replaced.cues.map((c) => c.lines.join(' '))).toEqual(['The Xq fox jumps.']);
    const xq = replaced.result.words[1]!;
    const plainXq = plain.result.words[1]!;
    expect(xq.endSeconds - xq.startSeconds).toBeGreaterThan(plainXq.endSeconds - plainXq.startSeconds + 0.3);
  });

  it('stays within 0.3 s of CPU per second of speech with breaks (each phrase is a run of its own)', async () => {
    const text = Array.from({ length: 6 }, (_, i) => `This is sentence number ${i + 1}, said with a pause after it.`).join('<break time="300ms"/> ');
    const cpu = process.cpuUsage();
    const { result } = await speak(text);
    const used = process.cpuUsage(cpu);
    const seconds = (used.user + used.system) / 1e6;
    console.log(
      `markup with 5 breaks: ${seconds.toFixed(3)} s CPU for ${result.durationSeconds.toFixed(2)} s of speech (${(seconds / result.durationSeconds).toFixed(3)} s/s)`,
    );
    expect(seconds / result.durationSeconds).toBeLessThanOrEqual(0.3);
  });
});
