/**
 * Attack: the CLI's key file. `vidbot login` over a config file that was left readable by others (0644, an older
 * tool's or a copied one) must never put the key into that readable file, not even for the moment before its mode is
 * narrowed: a reader who opened it while it was readable keeps reading it through that descriptor.
 */
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadCredentials, saveCredentials } from '../../../sdk/typescript/src/cli/config.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidbot-cli-key-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const readAll = (fd: number): string => {
  const buffer = Buffer.alloc(4096);
  const read = readSync(fd, buffer, 0, buffer.length, 0);
  return buffer.subarray(0, read).toString('utf8');
};

it('a reader who opened a world-readable config file before login never reads the new key through it', () => {
  const file = join(dir, 'config.json');
  writeFileSync(file, '{"base_url":"http://old.example","api_key":"old"}\n', { mode: 0o644 });
  // Another user's process opened the file while it was readable, and keeps the descriptor.
  const fd = openSync(file, 'r');
  try {
    saveCredentials({ baseUrl: 'http://localhost:3000', apiKey: 'vb_live_secret' }, { VIDBOT_CONFIG: file });
    expect(readAll(fd)).not.toContain('vb_live_secret');
  } finally {
    closeSync(fd);
  }
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(loadCredentials({ VIDBOT_CONFIG: file })).toEqual({ baseUrl: 'http://localhost:3000', apiKey: 'vb_live_secret' });
  expect(readFileSync(file, 'utf8')).toContain('vb_live_secret');
});

it('a login where no file was leaves one file of mode 0600 and nothing else in the folder', () => {
  const file = join(dir, 'vidbot', 'config.json');
  saveCredentials({ baseUrl: 'http://localhost:3000', apiKey: 'vb_live_secret' }, { VIDBOT_CONFIG: file });
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, 'vidbot')).mode & 0o777).toBe(0o700);
  expect(readdirSync(join(dir, 'vidbot'))).toEqual(['config.json']);
});
