/**
 * The committed espeak-ng catalog (functions/domain/espeak-languages.ts, written by `npm run voices:build`) against
 * the espeak-ng build the render function runs: the same languages, the same rows the build makes of
 * them, and voice ids that speak the voice file and variant they name. If the package changes what it speaks, this fails until the catalog is built again.
 */
import { describe, expect, it } from 'vitest';
import { ESPEAK_LANGUAGES } from '#domain/espeak-languages';
import { espeakVoiceArgument, listVoices } from '#domain/voices';
import { espeakLanguageRow, voiceNameOf } from '#infra/voices/build.ts';
import { espeakVoiceList, speechHash } from '#infra/voices/espeak-list.ts';

describe('the espeak-ng catalog', () => {
  it('lists exactly the languages the engine lists, with the tags and names the build gives them', async () => {
    const languages = await espeakVoiceList();
    expect(languages.length).toBeGreaterThanOrEqual(100);
    expect(languages.map((l) => ({ espeakLanguage: l.language, file: l.file }))).toEqual(
      ESPEAK_LANGUAGES.map((l) => ({ espeakLanguage: l.espeakLanguage, file: l.file })),
    );
    expect(languages.map((listed) => espeakLanguageRow(listed, voiceNameOf(listed, languages)))).toEqual(ESPEAK_LANGUAGES);
  });

  it('speaks each voice id with the voice file and the variant it names', async () => {
    expect(ESPEAK_LANGUAGES.find((row) => row.voice === 'en-gb')?.file).toBe('gmw/en');
    expect(espeakVoiceArgument('espeak:en-gb+m3')).toBe('gmw/en+m3');
    // Why by file: the library selects a voice by its file; a language tag that names no file is no voice to it.
    expect(await speechHash('en-gb+m3')).toBeUndefined();
    expect(await speechHash('gmw/en+m3')).toBeDefined();
    expect(await speechHash('gmw/en+m3')).not.toBe(await speechHash('gmw/en'));
    // A language espeak-ng lists twice (yue: Cantonese, and Cantonese read as Jyutping) is two voices, two files.
    expect(ESPEAK_LANGUAGES.filter((row) => row.espeakLanguage === 'yue').map((row) => [row.voice, row.file])).toEqual([
      ['yue', 'sit/yue'],
      ['yue-latn-jyutping', 'sit/yue-Latn-jyutping'],
    ]);
    // Each variant changes the sound of the voice; both speak.
    for (const id of listVoices({ polly: false })
      .filter((v) => ['es', 'ja', 'ar', 'en-GB', 'yue-Latn-jyutping'].includes(v.language))
      .map((v) => v.id)) {
      const argument = espeakVoiceArgument(id)!;
      const hash = await speechHash(argument);
      expect(hash, id).toBeDefined();
      expect(hash, id).not.toBe(await speechHash(argument.slice(0, argument.indexOf('+'))));
    }
    // And each English variant sounds unlike the others (a variant this build cannot make, as its Klatt ones, would
    // sound as the plain voice: "Bad voice attribute: klatt").
    const english = listVoices({ polly: false }).filter((v) => v.language === 'en-US');
    const hashes = await Promise.all(english.map((v) => speechHash(espeakVoiceArgument(v.id)!)));
    expect(english.map((v) => v.id).sort()).toEqual(['f2', 'f3', 'f5', 'm3', 'm5', 'm6'].map((variant) => `espeak:en-us+${variant}`));
    expect(new Set(hashes).size).toBe(english.length);
  });
});
