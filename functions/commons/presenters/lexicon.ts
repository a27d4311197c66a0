/** How callers see their lexicon (PUT, GET /v1/lexicon): no lexicon is an empty one. */
import type { Lexicon } from '#domain/lexicon';

export const toPublicLexicon = (lexicon: Lexicon | undefined) => ({
  entries: (lexicon?.entries ?? []).map((e) => ({ word: e.word, say: e.say })),
  updated_at: lexicon?.entries.length ? lexicon.updatedAt : null,
});
