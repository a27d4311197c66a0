import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every relative link and anchor in the README and docs/ resolves: a reader never lands on a missing page. */
const root = resolve(import.meta.dirname, '../../..');
const pages = [
  'README.md',
  'infra/local/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutCode(markdown)) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

function withoutCode(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
}

function linksOf(markdown: string): string[] {
  const text = withoutCode(markdown)
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('documentation links', () => {
  it('has the pages the README points to', () => {
    expect(pages.length).toBeGreaterThan(2);
  });

  for (const page of pages) {
    it(`${page}: every relative link and anchor resolves`, () => {
      const broken: string[] = [];
      for (const target of linksOf(readFileSync(join(root, page), 'utf8'))) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path ? resolve(root, dirname(page), decodeURIComponent(path)) : join(root, page);
        // The interface document lives beside the repository (shared/), outside it: not ours to check.
        if (relative(root, file).startsWith('..')) continue;
        if (!existsSync(file)) {
          broken.push(`${target} (no such file)`);
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target} (no such heading)`);
      }
      expect(broken).toEqual([]);
    });
  }
});
