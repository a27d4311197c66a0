import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESPEAK_LANGUAGES } from '#domain/espeak-languages';

/** Facts the pages state that the code decides: one source, the pages follow it. */
const root = resolve(import.meta.dirname, '../../..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'video-generation-service-interface.md')
    .map((f) => `docs/${f}`),
];

describe('the pages state what the code decides', () => {
  it("every count of languages is the speech engine's catalog (Polly's own count aside)", () => {
    const counts: string[] = [];
    for (const page of pages)
      for (const line of readFileSync(join(root, page), 'utf8').split('\n'))
        for (const match of line.matchAll(/(\d+) languages/g)) if (!/Polly/.test(line.slice(0, match.index))) counts.push(`${page}: ${match[1]}`);
    expect(counts.length).toBeGreaterThanOrEqual(3);
    expect(counts.filter((c) => !c.endsWith(`: ${ESPEAK_LANGUAGES.length}`))).toEqual([]);
  });

  it('links nothing outside the repository', () => {
    for (const page of pages) expect(readFileSync(join(root, page), 'utf8'), page).not.toMatch(/\]\(\.\.\/(?:\.\.\/)*shared\//);
  });
});
