/**
 * Clip text is the caller's, and it ends up in caption files that players parse. Hostile text — a timing line,
 * HTML tags, ASS overrides, entities — must come out of ffmpeg's own SubRip and WebVTT readers as the same cues
 * with the same times, the text shown as written: no extra cue, no lost cue, no markup interpreted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cue, toSrt, toWebVtt } from '#domain/captions';
import { runFfmpeg } from '#functions/media/media.ts';

const root = mkdtempSync(join(tmpdir(), 'vidbot-caption-injection-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const hostile: Cue[] = [
  { startSeconds: 1, endSeconds: 2.5, lines: ['00:00:00.000 --> 00:09:59.000', '00:00:00,000 --> 00:09:59,000'] },
  { startSeconds: 3, endSeconds: 4, lines: ['<b>bold</b> <i>it</i> <font color="red">red</font>', '{\\an8}top {\\b1}x &amp; &lt;'] },
  { startSeconds: 5, endSeconds: 6, lines: ['2', 'WEBVTT NOTE <c.red>x</c> <00:00:05.500> C:\\New\\hidden {comment}'] },
];

/** ffmpeg reads the file and writes it as ASS: its Dialogue events (start, end, text), which its decoders produced. */
async function readBack(name: string, body: string) {
  const path = join(root, name);
  writeFileSync(path, body);
  const { stdout } = await runFfmpeg(['-i', path, '-f', 'ass', '-'], { budgetSeconds: 30, captureStdout: true });
  return stdout
    .toString('utf8')
    .split(/\r?\n/)
    .filter((l) => l.startsWith('Dialogue:'))
    .map((l) => {
      const fields = l.slice('Dialogue:'.length).split(',');
      return { start: fields[1]!.trim(), end: fields[2]!.trim(), text: fields.slice(9).join(',') };
    });
}

describe('hostile clip text in caption files', () => {
  for (const [name, write] of [
    ['hostile.srt', toSrt],
    ['hostile.vtt', toWebVtt],
  ] as const) {
    it(`${name}: ffmpeg reads back exactly our cues, at our times, with no markup taken as markup`, async () => {
      const events = await readBack(name, write(hostile));
      expect(events.map((e) => [e.start, e.end])).toEqual([
        ['0:00:01.00', '0:00:02.50'],
        ['0:00:03.00', '0:00:04.00'],
        ['0:00:05.00', '0:00:06.00'],
      ]);
      // What libass would render: ffmpeg's own override blocks aside, the caller's braces must stay escaped (\{),
      // so no `{…}` of theirs can become an override (\an8, \b1) or hide text as a comment, and no `\N` of
      // theirs a line break.
      const ours = events.map((e) => e.text.replace(/\u200b/g, '·'));
      ours.forEach((text, i) => {
        expect(text, text).not.toMatch(/(?<!\\)\{/);
        // ffmpeg joins a cue's lines with \N: one fewer than our lines, none more.
        expect(text.split(/\\[Nn]/), text).toHaveLength(hostile[i]!.lines.length);
        expect(text, text).not.toMatch(/\\h/);
      });
      const shown = ours.join(' ');
      for (const word of ['bold', 'red', 'top', 'comment', '00:09:59', 'New']) expect(shown).toContain(word);
    });
  }
});
