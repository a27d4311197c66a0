/**
 * Montserrat and Merriweather have no Greek letters: Greek text (which captions burn and overlays show) is drawn
 * with Inter, never left to the system's fontconfig fallback (another font, or none on Lambda).
 */
import { describe, expect, it } from 'vitest';
import { captionsScript, placeCaptions } from '#functions/render/engine/burned-captions.ts';
import { fontRuns, fontsFor, THEME_FONT_FILES } from '#functions/render/engine/fonts.ts';

const frame = { width: 1280, height: 720 };
const bot = { x: 1000, y: 400, width: 200, height: 300 };

describe('Greek in a theme font without Greek', () => {
  for (const name of ['montserrat', 'merriweather'] as const) {
    const font = THEME_FONT_FILES[name];
    it(`${name}: Greek runs are drawn with Inter, and Inter's file is in the fonts folder`, () => {
      expect(fontRuns('Καλημέρα Hello', font).map((r) => [r.font.family, r.text])).toEqual([
        ['Inter SemiBold', 'Καλημέρα '],
        [font.family, 'Hello'],
      ]);
      expect(fontsFor(['Καλημέρα'], font).map((f) => f.file)).toEqual([font.file, THEME_FONT_FILES.inter.file]);
    });
    it(`${name}: a burned caption in Greek switches to Inter for its Greek words`, () => {
      const cue = { startSeconds: 0, endSeconds: 1, lines: ['Καλημέρα κόσμε'] };
      const script = captionsScript([cue], frame, placeCaptions(frame, bot), { font: name, primaryColor: '#2B59C3', textColor: '#FFFFFF' });
      expect(script).toContain('{\\fnInter SemiBold}Καλημέρα κόσμε');
    });
  }
  it('inter draws Greek itself', () => {
    expect(fontRuns('Καλημέρα', THEME_FONT_FILES.inter).map((r) => r.font.family)).toEqual(['Inter SemiBold']);
    expect(fontsFor(['Καλημέρα'], THEME_FONT_FILES.inter)).toEqual([THEME_FONT_FILES.inter]);
  });
});
