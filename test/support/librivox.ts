/** The LibriVox sentences pocketsphinx's package ships with their transcripts: the real speech the recording tests use. */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

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

/** pocketsphinx's recognition of a 16-kHz WAV file with word times: the reference an aligned word is measured against. */
export async function pocketsphinxWords(wav: string): Promise<{ text: string; startSeconds: number }[]> {
  const { stdout } = await promisify(execFile)('pocketsphinx_continuous', ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null']);
  return stdout
    .split('\n')
    .map((line) => line.split(' '))
    .filter((parts) => parts.length === 4 && /^[a-z']+(\(\d+\))?$/.test(parts[0]!))
    .map((parts) => ({ text: parts[0]!.replace(/\(\d+\)$/, ''), startSeconds: Number(parts[1]) }));
}
