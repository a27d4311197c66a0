/**
 * Amazon Polly (neural voices, standard where a voice has no neural variant): 16 kHz PCM for the sound plus a second request for viseme speech marks,
 * which drive the mouth shapes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollyClient, SynthesizeSpeechCommand, type VoiceId } from '@aws-sdk/client-polly';
import { traced } from '#commons/tracer';
import type { TimedWord } from '#domain/captions';
import { pollyEngineOf, type SpeechVoice, splitVoiceId } from '#domain/voices';
import type { SpeechEngine, SpeechResult } from '../engine/types.ts';
import { wavFromPcm16 } from '../engine/wav.ts';
import { speakable, wordsInOriginal } from './espeak.ts';

const SAMPLE_RATE = 16000;

interface SpeechMark {
  time: number;
  type: string;
  value: string;
  /** Word marks: UTF-8 byte offsets of the word in the request's text. */
  start?: number;
  end?: number;
}

/**
 * Polly's word marks as timed words of the clip's own text: byte offsets into the spoken text become UTF-16
 * offsets into it, then into the original (see speakable); a word ends where the next one starts, the last
 * where the audio ends.
 */
function wordsFromMarks(marks: SpeechMark[], spoken: { text: string; origin: number[] }, durationSeconds: number): TimedWord[] {
  const unitAtByte: number[] = [];
  let units = 0;
  for (const char of spoken.text) {
    const bytes = Buffer.byteLength(char);
    for (let b = 0; b < bytes; b++) unitAtByte.push(units);
    units += char.length;
  }
  unitAtByte.push(units);
  const words = marks.filter((m) => m.type === 'word' && m.start !== undefined && m.end !== undefined && m.end > m.start);
  return wordsInOriginal(
    spoken.origin,
    words
      .map((mark, i) => ({
        start: unitAtByte[mark.start!] ?? units,
        end: unitAtByte[mark.end!] ?? units,
        startSeconds: mark.time / 1000,
        endSeconds: Math.max(mark.time, words[i + 1]?.time ?? durationSeconds * 1000) / 1000,
      }))
      .filter((w) => w.end > w.start),
  );
}

export class PollySpeechEngine implements SpeechEngine {
  readonly name = 'polly';

  constructor(private readonly client: PollyClient = traced(new PollyClient({}))) {}

  async synthesize(text: string, voice: SpeechVoice, workDir: string): Promise<SpeechResult> {
    const [engine, voiceId] = splitVoiceId(voice.id);
    if (engine !== 'polly' || !voiceId) throw new Error(`not a Polly voice: "${voice.id}"`);
    const spoken = speakable(text);
    const common = { Engine: pollyEngineOf(voiceId), Text: spoken.text, TextType: 'text', VoiceId: voiceId as VoiceId } as const;
    const [audio, marks] = await Promise.all([
      this.client.send(new SynthesizeSpeechCommand({ ...common, OutputFormat: 'pcm', SampleRate: String(SAMPLE_RATE) })),
      this.client.send(new SynthesizeSpeechCommand({ ...common, OutputFormat: 'json', SpeechMarkTypes: ['viseme', 'word'] })),
    ]);
    if (!audio.AudioStream) throw new Error('Polly returned no audio');
    const pcm = Buffer.from(await audio.AudioStream.transformToByteArray());
    const all = marks.AudioStream
      ? (await marks.AudioStream.transformToString())
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as SpeechMark)
      : undefined;
    const visemes = all?.filter((mark) => mark.type === 'viseme').map((mark) => ({ timeMs: mark.time, value: mark.value }));
    const wavPath = join(workDir, 'speech.wav');
    writeFileSync(wavPath, wavFromPcm16(pcm, SAMPLE_RATE));
    const durationSeconds = pcm.length / 2 / SAMPLE_RATE;
    return { wavPath, sampleRate: SAMPLE_RATE, durationSeconds, visemes, words: wordsFromMarks(all ?? [], spoken, durationSeconds) };
  }
}
