/** Writing a prepared look to a directory, as the render job finds it (manifest.json + the files). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreparedLook } from '#functions/prepare/look.ts';

export function writeLook(root: string, look: PreparedLook): string {
  const directory = mkdtempSync(join(root, `${look.manifest.look}-`));
  for (const [name, bytes] of look.files) writeFileSync(join(directory, name), bytes);
  return directory;
}
