/**
 * A video bot's preparation with the real models and ffmpeg: what it refuses. The recordings are made here, from
 * the test portrait of a real person filmed by a slow camera move, or from nothing: no registry package ships a
 * recording of a person speaking (docs/video-bots.md, "Test material").
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '#functions/media/media.ts';
import { buildFootageLook } from '#functions/prepare/footage/footage-look.ts';
import { LookError } from '#functions/prepare/look.ts';
import { filmPhoto as filmStill } from '../../support/footage.ts';

let root: string;

const filmPhoto = (photo: string, seconds: number, name: string) => filmStill(root, photo, seconds, name);

async function refusal(path: string): Promise<string> {
  try {
    await buildFootageLook(path, statSync(path).size, mkdtempSync(join(root, 'work-')));
  } catch (error) {
    if (error instanceof LookError) return error.code;
    throw error;
  }
  return 'accepted';
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-footage-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('what a recording is refused for', () => {
  it('follows a real face through the recording and refuses it when the lips are never closed (the portrait smiles)', async () => {
    expect(await refusal(await filmPhoto('portrait.jpg', 11, 'portrait.mp4'))).toBe('mouth_never_closed');
  }, 900_000);

  it('names each problem: too short, not a video, no face', async () => {
    expect(await refusal(await filmPhoto('portrait.jpg', 4, 'short.mp4'))).toBe('video_too_short');
    const text = join(root, 'notes.mp4');
    writeFileSync(text, 'these are not the frames you are looking for\n'.repeat(200));
    expect(await refusal(text)).toBe('video_invalid');
    const blank = join(root, 'blank.mp4');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'color=c=0x406080:s=320x240:r=30', '-t', '11', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', blank], {
      budgetSeconds: 60,
    });
    expect(await refusal(blank)).toBe('no_face_found');
  }, 900_000);

  it('refuses a recording larger than the limit before reading it', async () => {
    const path = join(root, 'notes.mp4');
    await expect(buildFootageLook(path, 301 * 1024 * 1024, root)).rejects.toMatchObject({ code: 'video_too_large' });
  });
});
