import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link in the repository's markdown (README.md, docs/*.md, the folders' READMEs) names a file of the repository and, with a `#fragment` into a
 * markdown page, one of that page's headings, as GitHub makes their anchors: a clone's reader follows them.
 */
const root = resolve(import.meta.dirname, '../..');
/**
 * The repository's files as git tracks them: what a clone holds, so a link to a file left out of a commit fails
 * here as it would for a reader (an untracked page is not read either).
 */
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
const trackedFiles = new Set(tracked);
const trackedFolders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const pages = tracked.filter((file) => file.endsWith('.md'));

/** The markdown without its fenced code blocks, where a `#` line is not a heading. */
const withoutFences = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** Text outside fenced code blocks and inline code, where a `[x](y)` is not a link. */
const prose = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of each heading: its text lower-cased, punctuation dropped, spaces to hyphens, a repeat numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = text!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  page: string;
  target: string;
}

function linksOf(page: string): Link[] {
  const text = prose(readFileSync(join(root, page), 'utf8'));
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/<(?:a|img)\b[^>]*\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)).map((target) => ({ page, target }));
}

/** What is wrong with a link, or undefined. */
function problemOf({ page, target }: Link): string | undefined {
  const [path = '', fragment] = target.split('#');
  const file = path === '' ? join(root, page) : resolve(dirname(join(root, page)), decodeURIComponent(path));
  if (!file.startsWith(root + sep)) return 'points outside the repository';
  const inRepo = relative(root, file).split(sep).join('/');
  if (trackedFolders.has(inRepo)) return undefined;
  if (!trackedFiles.has(inRepo)) return `no file ${inRepo} in the repository`;
  if (fragment === undefined || !file.endsWith('.md')) return undefined;
  return anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(fragment).toLowerCase())
    ? undefined
    : `no heading #${fragment} in ${relative(root, file)}`;
}

describe('links in the markdown pages', () => {
  it('reads links and anchors as GitHub does', () => {
    const anchors = anchorsOf('# Bots and voices\n## `bot_size`: four sizes\n## Music\n## Music\n```\n# not a heading\n```\n');
    expect([...anchors]).toEqual(expect.arrayContaining(['bots-and-voices', 'bot_size-four-sizes', 'music', 'music-1']));
    expect(anchors.has('not-a-heading')).toBe(false);
    expect(linksOf('README.md').length).toBeGreaterThan(10);
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/performance.md', 'infra/local/README.md']));
  });

  it.each(pages)('%s: every relative link resolves to a file and heading', (page) => {
    const broken = linksOf(page)
      .map((link) => ({ link: link.target, problem: problemOf(link) }))
      .filter((entry) => entry.problem !== undefined);
    expect(broken).toEqual([]);
  });
});
