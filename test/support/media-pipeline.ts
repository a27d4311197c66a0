/** What the media pipeline's tests share: Ava's voice, the 1280x720 frame, and fresh work folders in one scratch folder per file. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';

export const AVA_VOICE = voiceToSpeak(BUILT_IN_BOTS[0]!.voice, undefined, { polly: false });

export const FRAME = frameSizeOf(DEFAULT_SHAPE);

/** Makes a scratch folder for the calling file's tests (removed after them); the function returns a new empty folder in it. */
export function workDirs(): () => string {
  let root: string;
  let n = 0;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'vidbot-media-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return () => {
    const d = join(root, `w${n++}`);
    mkdirSync(d);
    return d;
  };
}
