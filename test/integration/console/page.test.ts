/** The committed console page (functions/api/console-page.ts) is the build of console/src as it is now. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CONSOLE_PAGE_MODULE, consolePageModule } from '../../../console/build.ts';

describe('console page module', () => {
  it('matches a fresh build of console/src (run `npm run build:console` after changing the console)', async () => {
    expect(await readFile(CONSOLE_PAGE_MODULE, 'utf8')).toBe(await consolePageModule());
  });
});
