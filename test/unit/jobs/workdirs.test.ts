import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkDir, removeLeftoverWorkDirs } from '#commons/workdirs';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vidbot-workdirs-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('work dirs', () => {
  it('makes a fresh work dir in the temporary directory, named after its job', async () => {
    const made = await makeWorkDir('render', 'vid_1-0');
    try {
      expect(dirname(made)).toBe(tmpdir());
      expect(basename(made)).toMatch(/^render-vid_1-0-\w{6}$/);
      expect(existsSync(made)).toBe(true);
    } finally {
      await rm(made, { recursive: true, force: true });
    }
  });

  it('removes the leftover work dirs of its kind, with their contents, and nothing else', async () => {
    // Prepare: what killed renders and assemblies leave behind, next to things that are not theirs.
    await mkdir(join(dir, 'render-vid_1-0-abc123', 'frames'), { recursive: true });
    await writeFile(join(dir, 'render-vid_1-0-abc123', 'frames', 'clip.mp4'), 'partial');
    await mkdir(join(dir, 'render-vid_2-3-def456'));
    await mkdir(join(dir, 'assemble-vid_1-ghi789'));
    await mkdir(join(dir, 'renderer-cache'));
    await writeFile(join(dir, 'render-notes.txt'), 'a file, not a work dir');

    // Act
    const removed = await removeLeftoverWorkDirs('render', dir);

    // Assess
    expect(removed.sort()).toEqual(['render-vid_1-0-abc123', 'render-vid_2-3-def456']);
    expect((await readdir(dir)).sort()).toEqual(['assemble-vid_1-ghi789', 'render-notes.txt', 'renderer-cache']);
    expect(await removeLeftoverWorkDirs('assemble', dir)).toEqual(['assemble-vid_1-ghi789']);
  });

  it('never fails the job: a directory it cannot read is reported and skipped', async () => {
    await expect(removeLeftoverWorkDirs('render', join(dir, 'does-not-exist'))).resolves.toEqual([]);
  });
});
