/** How callers see a voice (GET /v1/voices). */
import type { Voice } from '#domain/voices';

export const presentVoice = (voice: Voice) => ({
  id: voice.id,
  language: voice.language,
  language_name: voice.languageName,
  gender: voice.gender ?? null,
  engine: voice.engine,
});
