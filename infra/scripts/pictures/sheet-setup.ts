/** The picture scripts' photo bot: a look prepared from the test portrait, written to `<work>/photo-look`. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildPhotoLook, loadPhotoModels } from '../../../functions/prepare/photo-look.ts';

export async function testPortraitLook(work: string): Promise<string> {
  await loadPhotoModels();
  const look = await buildPhotoLook(readFileSync(resolve('test/fixtures/prepare/portrait.jpg')));
  const dir = join(work, 'photo-look');
  mkdirSync(dir);
  for (const [file, bytes] of look.files) writeFileSync(join(dir, file), bytes);
  return dir;
}
