/**
 * Recordings and looks of video bots for the tests (docs/video-bots.md, "Test material"): the recording of a real
 * person speaking in test/fixtures/footage (or the one named by VIDBOT_TEST_RECORDING), and a photo of a real person
 * filmed by a slow camera move, for what a recording of a person cannot show (lips that never close, too short).
 */
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFfmpeg } from '#functions/media/media.ts';
import { buildFootageLook } from '#functions/prepare/footage/footage-look.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/prepare');
/** A real person speaking, with a listening pause (test/fixtures/footage/README.md). */
const PERSON = join(import.meta.dirname, '../fixtures/footage/person.mp4');

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
 * A prepared video bot's look in a directory under `root`, prepared as a caller's recording is: from
 * VIDBOT_TEST_RECORDING when it names a recording of a person speaking, else from test/fixtures/footage/person.mp4.
 */
export async function testFootageLook(root: string): Promise<{ dir: string }> {
  const recording = process.env.VIDBOT_TEST_RECORDING || PERSON;
  const dir = join(root, 'look');
  mkdirSync(dir, { recursive: true });
  const look = await buildFootageLook(recording, statSync(recording).size, mkdtempSync(join(root, 'prepare-')));
  for (const [file, bytes] of look.files) writeFileSync(join(dir, file), bytes);
  return { dir };
}
