/**
 * The fonts text is drawn with (burned captions, text overlays): the theme's family, and the Noto fonts that
 * draw what it cannot (Arabic; Chinese and Japanese). All OFL, SemiBold TTF from npm @expo-google-fonts; the
 * render bundle copies them to `fonts/` next to its code (infra/scripts/bundle-render.ts).
 *
 * libass finds a font by its family name among the files of `fontsdir`. Its own fallback for a missing glyph
 * goes through the system's fontconfig, which the render function does not control, so the text of each script
 * is given its font explicitly (fontRuns: an `\fn` override per run).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ThemeFont } from '#domain/choices';
import { engineAssets } from './assets.ts';

export interface FontFile {
  /** The family name libass looks the font up by (the TTF's full name). */
  family: string;
  /** The @expo-google-fonts package and the file in its 600SemiBold folder. */
  npmPackage: string;
  file: string;
  /** The widest average character, as a share of the font size (all capitals): how wide a line may get. */
  charWidth: number;
  /** Drawn this much larger than the size asked (Noto Sans Arabic's letters are small beside Latin ones). @default 1 */
  scale?: number;
  /** The family has no Greek letters (Montserrat, Merriweather): Greek is drawn with Inter instead. @default false */
  lacksGreek?: boolean;
}

export const THEME_FONT_FILES: Record<ThemeFont, FontFile> = {
  inter: { family: 'Inter SemiBold', npmPackage: 'inter', file: 'Inter_600SemiBold.ttf', charWidth: 0.62 },
  montserrat: { family: 'Montserrat SemiBold', npmPackage: 'montserrat', file: 'Montserrat_600SemiBold.ttf', charWidth: 0.72, lacksGreek: true },
  merriweather: {
    family: 'Merriweather SemiBold',
    npmPackage: 'merriweather',
    file: 'Merriweather_600SemiBold.ttf',
    charWidth: 0.72,
    lacksGreek: true,
  },
};

/** Arabic script (shaped and laid right to left by libass with FriBidi). */
const ARABIC_FONT: FontFile = {
  family: 'Noto Sans Arabic SemiBold',
  npmPackage: 'noto-sans-arabic',
  file: 'NotoSansArabic_600SemiBold.ttf',
  charWidth: 0.72,
  scale: 1.15,
};
/** Han, kana and the CJK punctuation (Simplified Chinese forms; Japanese kana and kanji are drawn too). */
const CJK_FONT: FontFile = { family: 'Noto Sans SC SemiBold', npmPackage: 'noto-sans-sc', file: 'NotoSansSC_600SemiBold.ttf', charWidth: 1.05 };

/** Every font file the render function needs (the render bundle copies these). */
export const ALL_FONT_FILES: readonly FontFile[] = [...Object.values(THEME_FONT_FILES), ARABIC_FONT, CJK_FONT];

const ARABIC = /\p{Script=Arabic}/u;
const GREEK = /\p{Script=Greek}/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef]/u;
/** Spaces, digits, punctuation, combining marks: drawn by the font of the run they are in. */
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** The font that draws a character, undefined for a neutral one. */
function fontOfChar(char: string, base: FontFile): FontFile | undefined {
  if (CJK.test(char)) return CJK_FONT;
  if (ARABIC.test(char)) return ARABIC_FONT;
  if (base.lacksGreek && GREEK.test(char)) return THEME_FONT_FILES.inter;
  if (NEUTRAL.test(char)) return undefined;
  return base;
}

/** Text cut into runs of one font each (a neutral character joins the run before it, or the first run). */
export function fontRuns(text: string, base: FontFile): { font: FontFile; text: string }[] {
  const runs: { font: FontFile | undefined; text: string }[] = [];
  for (const char of text) {
    const font = fontOfChar(char, base);
    const last = runs[runs.length - 1];
    if (last && (font === undefined || last.font === undefined || last.font === font)) {
      last.text += char;
      last.font ??= font;
    } else runs.push({ font, text: char });
  }
  return runs.map((r) => ({ font: r.font ?? base, text: r.text }));
}

/** How wide a character is drawn, as a share of the font size, at most. */
export const charWidthOf = (char: string, base: FontFile) => (fontOfChar(char, base) ?? base).charWidth;

/** Whether a run of text needs the taller line of the Noto fonts. */
export const needsTallLines = (text: string) => ARABIC.test(text) || CJK.test(text);

/** The files the texts need: the base font and, only if some text has their script, the Noto fonts. */
export function fontsFor(texts: string[], base: FontFile): FontFile[] {
  const all = texts.join('\n');
  return [
    base,
    ...(base.lacksGreek && GREEK.test(all) ? [THEME_FONT_FILES.inter] : []),
    ...(ARABIC.test(all) ? [ARABIC_FONT] : []),
    ...(CJK.test(all) ? [CJK_FONT] : []),
  ];
}

/**
 * A font's file: `fonts/` next to the running module (the render bundle copies them there), else the npm
 * package. A caption font configured at cold start (./assets.ts) is the Inter file.
 */
export function fontFilePath(font: FontFile): string {
  const configured = engineAssets().captionFontPath;
  if (font === THEME_FONT_FILES.inter && configured) return configured;
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'fonts', font.file);
  if (existsSync(bundled)) return bundled;
  return createRequire(import.meta.url).resolve(`@expo-google-fonts/${font.npmPackage}/600SemiBold/${font.file}`);
}
