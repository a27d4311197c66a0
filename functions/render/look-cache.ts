import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountBot, StoredLook } from '#domain/account-bot';
import { lookFileKey, retiredLookFileKey } from '#domain/bucket-layout';
import { JobFailedError } from '#domain/errors';
import type { ObjectStore } from '#domain/ports';

const COMPLETE = '.complete';
const SAFE_FILE = /^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,100}$/;
/**
 * Looks kept in /tmp by one warm container; the least recently used beyond this are removed (a photo look is about
 * 2.7 MB, 7.5 MB at density 2: 64 of them stay under 0.5 GB of the function's 2 GB of /tmp).
 */
const KEPT_LOOKS = 64;

/**
 * A prepared look's files (looks/<tenant>/<uid>/<version>/, or retired-looks/… once the bot was replaced) in a
 * local directory for loadSprites, downloaded once per version and kept while the container is warm: a version's
 * files never change (a replaced bot gets a new version), so a directory marked complete is reused as is, and the
 * sprite cache keyed by it stays valid.
 */
export function lookDirectories(objects: Pick<ObjectStore, 'getToFile'>, root = join(tmpdir(), 'looks'), keep = KEPT_LOOKS) {
  /** Directories of this process, least recently used first. */
  const recent: string[] = [];
  const touch = async (dir: string) => {
    const at = recent.indexOf(dir);
    if (at >= 0) recent.splice(at, 1);
    recent.push(dir);
    while (recent.length > keep) await rm(recent.shift()!, { recursive: true, force: true });
  };
  return async (own: Pick<AccountBot, 'tenantId' | 'uid'>, look: StoredLook): Promise<string> => {
    const dir = join(root, own.tenantId, own.uid, look.version);
    await touch(dir);
    if (existsSync(join(dir, COMPLETE))) return dir;
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    for (const file of look.files) {
      if (!SAFE_FILE.test(file) || file === COMPLETE) throw new Error(`look ${own.uid}/${look.version} names an unsafe file "${file}"`);
      // A retired look's files are copied before they are deleted: a file is always found in one place or the other.
      const found =
        (await objects.getToFile(lookFileKey(own.tenantId, own.uid, look.version, file), join(dir, file))) ||
        (await objects.getToFile(retiredLookFileKey(own.tenantId, own.uid, look.version, file), join(dir, file)));
      // Gone from both: the bot was deleted (or its look retired longer ago than any video waits).
      if (!found)
        throw new JobFailedError(
          'bot_not_found',
          `its bot "${own.uid}" was deleted, or replaced too long ago, and the look the video was accepted with is gone`,
        );
    }
    await writeFile(join(dir, COMPLETE), '');
    return dir;
  };
}
