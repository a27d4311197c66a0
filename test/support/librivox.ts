/** The LibriVox sentences pocketsphinx's package ships with their transcripts: the real speech the recording tests use. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
const TRANSCRIPTION = join(LIBRIVOX, 'transcription');

/** Whether the sentences are installed (the tests that need them are skipped outside CI when they are not). */
export const librivoxInstalled = () => existsSync(TRANSCRIPTION);

/** Each sentence's transcript and its WAV file; none when they are not installed. */
export function librivoxSentences(): { text: string; path: string }[] {
  if (!librivoxInstalled()) return [];
  return readFileSync(TRANSCRIPTION, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [, text, id] = /^<s> (.*) <\/s> \((.*)\)$/.exec(line)!;
      return { text: text!.replace(/\s+/g, ' ').trim(), path: join(LIBRIVOX, `${id}.wav`) };
    });
}
