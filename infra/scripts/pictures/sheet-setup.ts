/**
 * What the contact-sheet scripts of the bot's layouts share: a work directory, the folder the full-size frames go to
 * (`--frames`, or one inside the work directory), bot_ava, and a photo bot whose look is prepared from the test
 * portrait (test/fixtures/prepare/portrait.jpg), written to `<work>/photo-look`.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Bot, BUILT_IN_BOTS } from '#domain/bot';
import { buildPhotoLook, loadPhotoModels } from '../../../functions/prepare/photo-look.ts';

export interface SheetSetup {
  /** Removed by the caller when done. */
  work: string;
  framesDir: string;
  ava: Bot;
  /** bot_ava's voice and name with the test portrait's look (in `photoDir`). */
  photo: Bot;
  photoDir: string;
}

export async function sheetSetup(name: string, frames: string | undefined): Promise<SheetSetup> {
  const work = mkdtempSync(join(tmpdir(), `vidbot-${name}-`));
  const framesDir = frames ? resolve(frames) : join(work, 'frames');
  mkdirSync(framesDir, { recursive: true });
  const ava = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
  const photoDir = await writeTestPortraitLook(work);
  return { work, framesDir, ava, photo: { ...ava, uid: 'photo', look: 'photo' }, photoDir };
}

/** The test portrait's photo look, prepared and written to `<work>/photo-look`: its directory. */
export async function writeTestPortraitLook(work: string): Promise<string> {
  await loadPhotoModels();
  const look = await buildPhotoLook(readFileSync(resolve('test/fixtures/prepare/portrait.jpg')));
  const photoDir = join(work, 'photo-look');
  mkdirSync(photoDir);
  for (const [file, bytes] of look.files) writeFileSync(join(photoDir, file), bytes);
  return photoDir;
}
