/**
 * `npm run voices:polly` (AWS credentials needed): writes functions/domain/polly-voices.ts, the Polly half of the
 * voice catalog, from Polly's DescribeVoices in the current region. The file is committed, so listing and checking
 * voices needs neither a Polly permission nor a network call; run this when Polly adds voices.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Voice as DescribedVoice, DescribeVoicesCommand, PollyClient } from '@aws-sdk/client-polly';
import type { PollyVoice } from '../../functions/domain/polly-voices.ts';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions', 'domain', 'polly-voices.ts');

/** Polly's language codes that are not BCP 47: `en-GB-WLS` (Welsh English; WLS is no variant subtag). */
const TAG_OF: Record<string, { language: string; languageName: string }> = { 'en-GB-WLS': { language: 'en-GB', languageName: 'Welsh English' } };

const names = new Intl.DisplayNames(['en'], { type: 'language' });

/**
 * The catalog's rows of what DescribeVoices answers: voices vidbot can speak (neural, or standard where the voice
 * has no neural variant; generative- or long-form-only voices are left out), in canonical BCP 47 with English
 * language names, sorted by language and id.
 */
export function pollyVoiceRows(described: DescribedVoice[]): PollyVoice[] {
  const rows: PollyVoice[] = [];
  for (const voice of described) {
    const engines = voice.SupportedEngines ?? [];
    if (!voice.Id || !voice.LanguageCode || !(engines.includes('neural') || engines.includes('standard'))) continue;
    const tag = TAG_OF[voice.LanguageCode];
    const language = tag?.language ?? Intl.getCanonicalLocales(voice.LanguageCode)[0]!;
    rows.push({
      voiceId: voice.Id,
      language,
      languageName: tag?.languageName ?? names.of(language) ?? voice.LanguageName ?? language,
      gender: voice.Gender === 'Male' ? 'male' : 'female',
      neural: engines.includes('neural'),
    });
  }
  return rows.sort((a, b) => a.language.localeCompare(b.language) || a.voiceId.localeCompare(b.voiceId));
}

/** Every voice DescribeVoices lists, page by page. */
export async function describeAllVoices(client: PollyClient): Promise<DescribedVoice[]> {
  const voices: DescribedVoice[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new DescribeVoicesCommand({ NextToken: token }));
    voices.push(...(page.Voices ?? []));
    token = page.NextToken;
  } while (token);
  return voices;
}

/** The data part of polly-voices.ts: its header and interface are kept, the array is rewritten. */
export function withRows(module: string, rows: readonly PollyVoice[]): string {
  const start = module.indexOf('export const POLLY_VOICES');
  if (start < 0) throw new Error('polly-voices.ts has no POLLY_VOICES');
  const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = rows.map(
    (r) =>
      `  { voiceId: ${quote(r.voiceId)}, language: ${quote(r.language)}, languageName: ${quote(r.languageName)}, gender: '${r.gender}', neural: ${r.neural} },`,
  );
  return `${module.slice(0, start)}export const POLLY_VOICES: readonly PollyVoice[] = [\n${lines.join('\n')}\n];\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { readFileSync } = await import('node:fs');
  const rows = pollyVoiceRows(await describeAllVoices(new PollyClient({})));
  writeFileSync(target, withRows(readFileSync(target, 'utf8'), rows));
  console.log(`${rows.length} Polly voices (${rows.filter((r) => r.neural).length} neural) written to ${target}`);
}
