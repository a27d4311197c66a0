import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logger } from './logger.ts';

/** The jobs that work on local files. Each names its work dirs `<kind>-<label>-XXXXXX` in os.tmpdir(). */
export type WorkDirKind = 'fetch' | 'render' | 'assemble' | 'prepare';

/** A new, empty work dir for one job; the job removes it in `finally`. */
export const makeWorkDir = (kind: WorkDirKind, label: string) => mkdtemp(join(tmpdir(), `${kind}-${label}-`));

/**
 * Removes the `kind` work dirs left in `dir` by earlier invocations. A run killed by the Lambda timeout (or
 * the OOM killer) never reaches its `finally`, and a warm execution environment keeps /tmp, so its leftovers
 * would pile up until /tmp is full. Call it at the start of an invocation, and only where no other invocation
 * can share the directory: on Lambda each execution environment has its own /tmp and runs one invocation at a
 * time (the render and assemble functions take one message per batch); the local runtime gives each of its
 * execution environments its own TMPDIR for the same reason. Never throws: a failed clean-up must not fail
 * the job. Returns the names removed.
 */
export async function removeLeftoverWorkDirs(kind: WorkDirKind, dir = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  try {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || !entry.name.startsWith(`${kind}-`)) continue;
      await rm(join(dir, entry.name), { recursive: true, force: true });
      removed.push(entry.name);
    }
  } catch (error) {
    logger.warn('could not clear leftover work dirs', { kind, dir, error: (error as Error).message });
  }
  if (removed.length) logger.warn('removed leftover work dirs of earlier invocations', { kind, count: removed.length });
  return removed;
}
