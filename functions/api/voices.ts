import { loadConfig } from '#commons/config';
import { type HttpResult, httpHandler, json } from '#commons/http';
import { presentVoice } from '#commons/presenters/voice';
import { InvalidRequestError } from '#domain/errors';
import { canonicalLanguage, listVoices, type VoiceOptions, voicesOfLanguage } from '#domain/voices';

const config = loadConfig({});

/** GET /v1/voices: every voice the deployment speaks, or those of one language (`?language=es`). */
function voiceListing(query: Record<string, string>, options: VoiceOptions): HttpResult {
  let voices = listVoices(options);
  if (query.language !== undefined) {
    const language = canonicalLanguage(query.language);
    if (!language) throw new InvalidRequestError([{ path: 'language', message: 'must be a BCP 47 language tag, e.g. es, pt-BR, zh' }]);
    voices = voicesOfLanguage(voices, language);
  }
  return json(200, { voices: voices.map(presentVoice) });
}

export const handler = httpHandler({
  'GET /v1/voices': async (request) => voiceListing(request.query, config.voices),
});
