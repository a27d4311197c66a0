/**
 * Clips that speak the caller's recording (audio_url, audio_upload) instead of a synthesised voice: which
 * transcripts can be aligned, and the uploads a video takes for its clips. Pure rules and ports: no AWS here.
 */
import type { ClipInput, ClipReference } from './clip.ts';
import { InvalidRequest } from './errors.ts';
import type { UploadStore } from './ports.ts';
import { type ClaimDeps, claimUpload } from './uploads.ts';

/** The languages a transcript is aligned in: the acoustic models SoundSwallower ships (US English, French). */
const ALIGNMENT_LANGUAGES = ['en', 'fr'] as const;
export type AlignmentLanguage = (typeof ALIGNMENT_LANGUAGES)[number];

/** The alignment language of a voice's language tag (`en-US`, `fr`, `en-gb-x-rp`), if there is one. */
export const alignmentLanguageOf = (language: string): AlignmentLanguage | undefined =>
  ALIGNMENT_LANGUAGES.find((l) => l === language.toLowerCase().split(/[-_]/)[0]);
export const canAlignTranscript = (language: string) => alignmentLanguageOf(language) !== undefined;

/**
 * Takes every upload the clips name for the video `videoId`: each must be the caller's audio upload, stored and
 * unused (uploads.ts claimUpload). All are checked before any is taken, so a request refused for one upload
 * leaves the others unused.
 */
export async function claimRecordings(
  clips: readonly (ClipInput | ClipReference)[],
  tenantId: string,
  videoId: string,
  deps: ClaimDeps | undefined,
): Promise<string[]> {
  const named = clips.flatMap((clip, index) =>
    'audio_upload' in clip && clip.audio_upload !== undefined ? [{ id: clip.audio_upload, path: `clips[${index}].audio_upload` }] : [],
  );
  if (named.length && !deps) throw new InvalidRequest(named.map((n) => ({ path: n.path, message: 'is not accepted here: give audio_url' })));
  if (!deps) return [];
  const ids = named.map((n) => n.id);
  const twice = named.find((n, i) => ids.indexOf(n.id) !== i);
  if (twice)
    throw new InvalidRequest([{ path: twice.path, message: 'names an upload another clip of this video already uses; upload the file again' }]);
  // A store is a class: its methods live on its prototype, which a spread ({ ...store }) would leave behind.
  const dryUploads: UploadStore = Object.assign(Object.create(deps.uploads), { markUsed: async () => true });
  const dryRun = { ...deps, uploads: dryUploads };
  for (const n of named) await claimUpload(tenantId, n.id, { kind: 'audio', path: n.path, usedBy: videoId }, dryRun);
  const taken: string[] = [];
  try {
    for (const n of named) {
      await claimUpload(tenantId, n.id, { kind: 'audio', path: n.path, usedBy: videoId }, deps);
      taken.push(n.id);
    }
  } catch (error) {
    await releaseRecordings(taken, tenantId, videoId, deps);
    throw error;
  }
  return named.map((n) => n.id);
}

/** Gives back the uploads a video took when the request fails after taking them, so a retry can name them again. */
export async function releaseRecordings(uploadIds: readonly string[], tenantId: string, videoId: string, deps: ClaimDeps | undefined) {
  if (!deps) return;
  await Promise.all(uploadIds.map((id) => deps.uploads.release(tenantId, id, videoId)));
}
