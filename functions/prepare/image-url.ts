import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mode } from '#commons/config';
import { makeWorkDir } from '#commons/workdirs';
import { limits } from '#domain/limits';
import { fetchMediaToFile } from '#media/fetch-media';

/** What a bot is made from by URL: a photo (image_url) or a recording (video_url), with their limits and words. */
const FILES = {
  image: { noun: 'image', maxBytes: limits.maxBotImageBytes, timeoutMs: limits.botImageTimeoutMs },
  video: { noun: 'recording', maxBytes: limits.maxRecordingBytes, timeoutMs: limits.botVideoTimeoutMs },
} as const;

/**
 * Downloads a bot's image_url or video_url into `path` (functions/media/fetch-media.ts: the address guard, the
 * size and time limits of its kind). What the caller can fix fails the bot with our words (`image_…` or
 * `video_…`); a passing fault, a 5xx or a 429 is rethrown for a retry.
 */
const fetchBotFile = (url: string, path: string, mode: Mode, what: keyof typeof FILES) =>
  fetchMediaToFile(url, path, {
    mode,
    maxBytes: FILES[what].maxBytes,
    timeoutMs: FILES[what].timeoutMs,
    code: what,
    noun: { file: `the ${FILES[what].noun}`, url: `the ${FILES[what].noun} URL` },
  });

/** A photo's bytes (at most limits.maxBotImageBytes: the photo look decodes it from memory). */
export async function fetchBotImage(url: string, mode: Mode): Promise<Buffer> {
  const dir = await makeWorkDir('prepare', 'image');
  try {
    const path = join(dir, 'image');
    await fetchBotFile(url, path, mode, 'image');
    return await readFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A recording streamed into `path`: up to limits.maxRecordingBytes, never held in memory. */
export const fetchRecording = async (url: string, path: string, mode: Mode): Promise<void> => {
  await fetchBotFile(url, path, mode, 'video');
};
