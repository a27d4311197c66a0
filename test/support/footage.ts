/**
 * Recordings and looks of video bots for the tests (docs/video-bots.md, "Test material"): a photo of a real person
 * filmed by a slow camera move (no registry package ships a recording of a person speaking), or the recording named
 * by VIDBOT_TEST_RECORDING when one is given.
 */
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFfmpeg } from '#functions/media/media.ts';
import { buildFootageLook, footageLookOf } from '#functions/prepare/footage/footage-look.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/prepare');

/** A recording of a photo of test/fixtures/prepare: `seconds` at 30 fps, the camera drifting a few px and zooming by 2 % (a person holding still). */
export async function filmPhoto(root: string, photo: string, seconds: number, name: string): Promise<string> {
  const path = join(root, name);
  const zoom = "zoompan=z='1.02+0.01*sin(on/40)':x='iw/2-(iw/zoom/2)+3*sin(on/25)':y='ih/2-(ih/zoom/2)+2*sin(on/31)':d=1:s=480x608:fps=30";
  await runFfmpeg(
    [
      '-y',
      '-loop',
      '1',
      '-i',
      join(FIXTURES, photo),
      '-vf',
      `scale=480:608,${zoom}`,
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      path,
    ],
    { budgetSeconds: 120 },
  );
  return path;
}

/**
 * A prepared video bot's look in a directory under `root`: from VIDBOT_TEST_RECORDING (a recording of a person
 * speaking, prepared as a caller's would be), or else from the test portrait filmed still (whose smiling lips never
 * close: its look is taken before that refusal, so it has no closed mouth and speaks with its open ones).
 */
export async function testFootageLook(root: string): Promise<{ dir: string; speaking: boolean }> {
  const recording = process.env.VIDBOT_TEST_RECORDING;
  const dir = join(root, 'look');
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(root, 'prepare-'));
  const look = recording
    ? await buildFootageLook(recording, statSync(recording).size, work)
    : await footageLookOf(await filmPhoto(root, 'portrait.jpg', 10.5, 'portrait.mp4'), 1, work);
  for (const [file, bytes] of look.files) writeFileSync(join(dir, file), bytes);
  return { dir, speaking: !!recording };
}
