/** Speech engines behind the SpeechEngine port, and the choice between them. */
import type { PollyClient } from '@aws-sdk/client-polly';
import { type SpeechVoice, splitVoiceId } from '#domain/voices';
import type { SpeechEngine } from '../engine/types.ts';
import { EspeakSpeechEngine } from './espeak.ts';
import { PollySpeechEngine } from './polly.ts';

export { EspeakSpeechEngine } from './espeak.ts';

let espeak: EspeakSpeechEngine | undefined;
let polly: PollySpeechEngine | undefined;

/**
 * The engine of the voice: its id names it (`polly:…` or `espeak:…`). Which voice a clip speaks with — and so
 * whether Polly is used at all — the deployment's SPEECH_ENGINE decides, through the domain's voiceToSpeak.
 * Engines are reused across invocations of a warm Lambda.
 */
export function speechEngineFor(voice: SpeechVoice, deps: { pollyClient?: PollyClient } = {}): SpeechEngine {
  const [engine] = splitVoiceId(voice.id);
  if (engine === 'polly') {
    if (deps.pollyClient) return new PollySpeechEngine(deps.pollyClient);
    return (polly ??= new PollySpeechEngine());
  }
  if (engine === 'espeak') return (espeak ??= new EspeakSpeechEngine());
  throw new Error(`no speech engine for voice "${voice.id}"`);
}
