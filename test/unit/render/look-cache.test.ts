/**
 * The render function's local copies of prepared looks: downloaded once per version (from looks/, or from
 * retired-looks/ once the bot was replaced), bounded, never a path outside.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AccountBot } from '#domain/account-bot';
import { lookDirectories } from '#functions/render/look-cache.ts';

const bot = (uid: string, files = ['manifest.json', 'panel.png']): AccountBot => ({
  tenantId: 'acct_1',
  uid,
  keyId: 'key_1',
  name: uid,
  description: '',
  voice: 'espeak:en-us+f3',
  defaultPosition: 'center',
  status: 'ready',
  version: 'v_1',
  source: { kind: 'photo_url', url: 'https://example.com/p.jpg' },
  look: { version: 'v_1', files, preview: 'preview.png' },
  createdAt: '2026-11-23T00:00:00Z',
  updatedAt: '2026-11-23T00:00:00Z',
});

/** A store holding every key, or only those `has` accepts. */
function fakeStore(has: (key: string) => boolean = () => true) {
  const fetched: string[] = [];
  return {
    fetched,
    getToFile: async (key: string, path: string) => {
      fetched.push(key);
      if (!has(key)) return false;
      writeFileSync(path, key);
      return true;
    },
  };
}
const dirsOf = (store: ReturnType<typeof fakeStore>, keep?: number) => {
  const dirs = lookDirectories(store, mkdtempSync(join(tmpdir(), 'looks-')), keep);
  return (own: AccountBot) => dirs(own, own.look!);
};

describe('lookDirectories', () => {
  it('downloads a version once, then reuses its directory', async () => {
    const store = fakeStore();
    const dirs = dirsOf(store);
    const first = await dirs(bot('mine'));
    expect(await dirs(bot('mine'))).toBe(first);
    expect(store.fetched).toEqual(['looks/acct_1/mine/v_1/manifest.json', 'looks/acct_1/mine/v_1/panel.png']);
  });

  it('finds a retired look under retired-looks/, file by file (a look being retired is half in each place)', async () => {
    const store = fakeStore((key) => key === 'looks/acct_1/mine/v_1/manifest.json' || key === 'retired-looks/acct_1/mine/v_1/panel.png');
    const dir = await dirsOf(store)(bot('mine'));
    expect(readFileSync(join(dir, 'panel.png'), 'utf8')).toBe('retired-looks/acct_1/mine/v_1/panel.png');
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe('looks/acct_1/mine/v_1/manifest.json');
  });

  it('fails the clip with bot_not_found when a file is in neither place (the bot was deleted)', async () => {
    const store = fakeStore((key) => !key.endsWith('panel.png'));
    await expect(dirsOf(store)(bot('gone'))).rejects.toMatchObject({ code: 'bot_not_found' });
  });

  it('keeps at most its limit of looks on disk, removing the least recently used', async () => {
    const dirs = dirsOf(fakeStore(), 2);
    const a = await dirs(bot('bot-a'));
    const b = await dirs(bot('bot-b'));
    await dirs(bot('bot-a')); // a is now the most recent
    const c = await dirs(bot('bot-c'));
    expect([existsSync(a), existsSync(b), existsSync(c)]).toEqual([true, false, true]);
  });

  it('refuses a look naming "." or ".." or a path', async () => {
    const dirs = dirsOf(fakeStore());
    for (const file of ['..', '.', '../x.png', 'a/b.png']) await expect(dirs(bot('bad', [file]))).rejects.toThrow(/unsafe file/);
  });
});
