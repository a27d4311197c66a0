/**
 * Amazon Polly (neural voices, standard where a voice has no neural variant): 16 kHz PCM for the sound plus a second request for viseme speech marks,
 * which drive the mouth shapes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollyClient, SynthesizeSpeechCommand, type VoiceId } from '@aws-sdk/client-polly';
import { traced } from '#commons/tracer';
import type { TimedWord } from '#domain/captions';
import type { SpeechScript } from '#domain/lexicon';
import { limits } from '#domain/limits';
import type { EmphasisLevel } from '#domain/speech-markup';
import { pollyEngineOf, type SpeechVoice, splitVoiceId } from '#domain/voices';
import { wavFromPcm16 } from '#media/wav';
import { type SpeechEngine, type SpeechResult, SpokenTextTooLongError } from '../engine/types.ts';
import { SpokenText } from './spoken-text.ts';

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
 * Polly's word marks as timed words of the shown text: byte offsets into the request's text (SSML included)
 * become UTF-16 offsets into it, then into the shown text (see SpokenText); a word ends where the next one
 * starts, the last where the audio ends.
 */
function wordsFromMarks(marks: SpeechMark[], sent: SpokenText, durationSeconds: number): TimedWord[] {
  const unitAtByte: number[] = [];
  let units = 0;
  for (const char of sent.text) {
    const bytes = Buffer.byteLength(char);
    for (let b = 0; b < bytes; b++) unitAtByte.push(units);
    units += char.length;
  }
  unitAtByte.push(units);
  const words = marks.filter((m) => m.type === 'word' && m.start !== undefined && m.end !== undefined && m.end > m.start);
  return sent.wordsInShown(
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

/**
 * Emphasis as Polly's engines take it: the standard engine reads `<emphasis>`; neural voices do not, so it becomes
 * a change of loudness and pace they do read (`<prosody>` volume and rate).
 */
const EMPHASIS: Record<EmphasisLevel, { standard: string; neural: string }> = {
  strong: { standard: '<emphasis level="strong">', neural: '<prosody volume="+6dB" rate="90%">' },
  moderate: { standard: '<emphasis level="moderate">', neural: '<prosody volume="+3dB" rate="95%">' },
  reduced: { standard: '<emphasis level="reduced">', neural: '<prosody volume="-4dB" rate="105%">' },
};

/**
 * The request's text: plain text when the script has no markup (breaks, emphasis, spelling), else SSML with the
 * caller's text escaped. Lexicon replacements are already in the pieces' text either way.
 */
function requestText(script: SpeechScript, engine: 'neural' | 'standard'): { sent: SpokenText; textType: 'text' | 'ssml' } {
  const sent = new SpokenText();
  const ssml = script.parts.some((p) => p.kind === 'break' || p.emphasis || p.spell);
  if (!ssml) {
    for (const part of script.parts) if (part.kind === 'speech') sent.say(part.text, part.spans);
    return { sent, textType: 'text' };
  }
  sent.markup('<speak>');
  for (const part of script.parts) {
    if (part.kind === 'break') {
      sent.markup(`<break time="${Math.round(part.seconds * 1000)}ms"/>`);
      continue;
    }
    if (part.emphasis) sent.markup(EMPHASIS[part.emphasis][engine]);
    if (part.spell) sent.markup('<say-as interpret-as="characters">');
    sent.say(part.text, part.spans, { xml: true });
    if (part.spell) sent.markup('</say-as>');
    if (part.emphasis) sent.markup(engine === 'standard' ? '</emphasis>' : '</prosody>');
  }
  sent.markup('</speak>');
  return { sent, textType: 'ssml' };
}

export class PollySpeechEngine implements SpeechEngine {
  readonly name = 'polly';

  constructor(private readonly client: PollyClient = traced(new PollyClient({}))) {}

  async synthesize(script: SpeechScript, voice: SpeechVoice, workDir: string): Promise<SpeechResult> {
    const [engine, voiceId] = splitVoiceId(voice.id);
    if (engine !== 'polly' || !voiceId) throw new Error(`not a Polly voice: "${voice.id}"`);
    const pollyEngine = pollyEngineOf(voiceId);
    const { sent, textType } = requestText(script, pollyEngine);
    // Escaped markup can make a request longer than its text: refused here rather than paid for and refused by Polly.
    if (sent.text.length > limits.maxPollyRequestChars) throw new SpokenTextTooLongError(sent.text.length, limits.maxPollyRequestChars);
    const common = { Engine: pollyEngine, Text: sent.text, TextType: textType, VoiceId: voiceId as VoiceId } as const;
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
    return { wavPath, sampleRate: SAMPLE_RATE, durationSeconds, visemes, words: wordsFromMarks(all ?? [], sent, durationSeconds) };
  }
}
