/** Speech engines behind the SpeechEngine port, and the choice between them. */
import type { PollyClient } from '@aws-sdk/client-polly';
import type { Bot } from '#domain/bot';
import { envNames } from '#commons/env-names';
import type { SpeechEngine } from '../engine/types.ts';
import { EspeakSpeechEngine } from './espeak.ts';
import { PollySpeechEngine } from './polly.ts';

export { EspeakSpeechEngine } from './espeak.ts';
export { PollySpeechEngine } from './polly.ts';

let espeak: EspeakSpeechEngine | undefined;
let polly: PollySpeechEngine | undefined;

/**
 * Polly when the deployment enables it (SPEECH_ENGINE=polly) and the bot's voice prefers it; espeak-ng
 * otherwise. Engines are reused across invocations of a warm Lambda.
 */
export function speechEngineFor(
  bot: Bot,
  env: Record<string, string | undefined> = process.env,
  deps: { pollyClient?: PollyClient } = {},
): SpeechEngine {
  if (env[envNames.speechEngine] === 'polly' && bot.voice.engine === 'polly') {
    if (deps.pollyClient) return new PollySpeechEngine(deps.pollyClient);
    return (polly ??= new PollySpeechEngine());
  }
  return (espeak ??= new EspeakSpeechEngine());
}
