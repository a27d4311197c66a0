/** What the captions tests share: a scratch folder per file, the bot they speak with, and the text a list of cues shows. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { Cue } from '#domain/captions';

/** A fresh folder under the system's temporary one, removed after the calling file's tests. */
export function scratchDir(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

export const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;

export const shown = (cues: Cue[]) => cues.map((c) => c.lines.join(' ')).join(' ');
