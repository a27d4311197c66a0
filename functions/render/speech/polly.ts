/**
 * Amazon Polly (neural voices, standard where a voice has no neural variant): 16 kHz PCM for the sound plus a second request for viseme speech marks,
 * which drive the mouth shapes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollyClient, SynthesizeSpeechCommand, type VoiceId } from '@aws-sdk/client-polly';
import { traced } from '#commons/tracer';
import { pollyEngineOf, splitVoiceId, type SpeechVoice } from '#domain/voices';
import type { SpeechEngine, SpeechResult } from '../engine/types.ts';
import { wavFromPcm16 } from '../engine/wav.ts';
import { speakableText } from './espeak.ts';

const SAMPLE_RATE = 16000;

interface SpeechMark {
  time: number;
  type: string;
  value: string;
}

export class PollySpeechEngine implements SpeechEngine {
  readonly name = 'polly';

  constructor(private readonly client: PollyClient = traced(new PollyClient({}))) {}

  async synthesize(text: string, voice: SpeechVoice, workDir: string): Promise<SpeechResult> {
    const [engine, voiceId] = splitVoiceId(voice.id);
    if (engine !== 'polly' || !voiceId) throw new Error(`not a Polly voice: "${voice.id}"`);
    const common = { Engine: pollyEngineOf(voiceId), Text: speakableText(text), TextType: 'text', VoiceId: voiceId as VoiceId } as const;
    const [audio, marks] = await Promise.all([
      this.client.send(new SynthesizeSpeechCommand({ ...common, OutputFormat: 'pcm', SampleRate: String(SAMPLE_RATE) })),
      this.client.send(new SynthesizeSpeechCommand({ ...common, OutputFormat: 'json', SpeechMarkTypes: ['viseme'] })),
    ]);
    if (!audio.AudioStream) throw new Error('Polly returned no audio');
    const pcm = Buffer.from(await audio.AudioStream.transformToByteArray());
    const visemes = marks.AudioStream
      ? (await marks.AudioStream.transformToString())
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as SpeechMark)
          .filter((mark) => mark.type === 'viseme')
          .map((mark) => ({ timeMs: mark.time, value: mark.value }))
      : undefined;
    const wavPath = join(workDir, 'speech.wav');
    writeFileSync(wavPath, wavFromPcm16(pcm, SAMPLE_RATE));
    return { wavPath, sampleRate: SAMPLE_RATE, durationSeconds: pcm.length / 2 / SAMPLE_RATE, visemes };
  }
}
