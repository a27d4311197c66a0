/**
 * Beside the lips, the blend lays the sample only where it agrees with the frame (mouth-blend.ts sidesAgreeing): a
 * sample cut from a head turned a little otherwise carries its jaw's shadow, hair or the backdrop where the frame has
 * its cheek, which laid there reads as a second jaw line. On a real look's geometry
 * (test/fixtures/render/mouth-blend-geometry.json) with pixels drawn here: a frame of one skin colour; a sample of the
 * same skin with dark lips, and another with hair down both sides as well.
 */
import { describe, expect, it } from 'vitest';
import { applySimilarity, invertSimilarity, JAW_POINTS, lowerFaceSize, type Point, toReference } from '#domain/face-space';
import type { MouthSample } from '#domain/look';
import { type AtlasSheet, blendMouth, blendWeights } from '#functions/render/engine/footage/mouth-blend.ts';
import { blendGeometry, points } from '../../../support/mouth-blend-geometry.ts';

const geometry = blendGeometry;
const { frameWidth: width, frameHeight: height, eyePx } = geometry;
const reference = points(geometry.reference);
const tile = lowerFaceSize(eyePx);
const SKIN = [178, 128, 112];
const LIPS = [120, 50, 60];
const HAIR = [70, 52, 40];

const frame = Buffer.alloc(width * height * 4);
for (let p = 0; p < frame.length; p += 4) frame.set([...SKIN, 255], p);

describe('the blend beside the lips', () => {
  for (const [f, list] of geometry.frames.entries()) {
    const landmarks = points(list);
    const toFace = toReference(landmarks, reference);
    const inFace = landmarks.map((p) => applySimilarity(toFace, p));
    const toFrame = invertSimilarity(toFace);
    // The lips' box in face space (the frame's outer lip landmarks), and a point on each cheek beside it.
    const lips = { left: inFace[48]!.x, right: inFace[54]!.x, top: inFace[51]!.y, bottom: inFace[57]!.y };
    const mouthY = (lips.top + lips.bottom) / 2;
    // (The left cheek: the fixture's face is turned, so the mask reaches 0.4 eye distances beyond the lips' corner on
    // that side alone.)
    const cheeks: Point[] = [{ x: lips.left - 0.32 * eyePx, y: mouthY }];
    const lipsMiddle = { x: (lips.left + lips.right) / 2, y: mouthY };

    // Two tiles: skin with lips; the same with hair from 0.15 eye distances beyond the lips' corners outward.
    const sheet: AtlasSheet = { width: 2 * tile.width, height: tile.height, rgb: Buffer.alloc(2 * tile.width * tile.height * 3) };
    for (let y = 0; y < tile.height; y++)
      for (let x = 0; x < sheet.width; x++) {
        const u = x % tile.width;
        const onLips = u >= lips.left && u <= lips.right && y >= lips.top && y <= lips.bottom;
        // Hair on the cheeks, above the jaw's corners (landmarks 6 and 10): below them the frame has its jaw.
        const hair = x >= tile.width && (u < lips.left - 0.15 * eyePx || u > lips.right + 0.15 * eyePx) && y < Math.min(inFace[6]!.y, inFace[10]!.y);
        sheet.rgb.set(onLips ? LIPS : hair ? HAIR : SKIN, (y * sheet.width + x) * 3);
      }
    const plain: MouthSample = { ...geometry.samples[0]!, x: 0, y: 0 };
    const haired: MouthSample = { ...geometry.samples[0]!, x: tile.width, y: 0 };
    const input = { frame, width, height, landmarks, reference, eyePx, sheet };
    const weightAt = (weights: Float32Array, p: Point) => {
      const q = applySimilarity(toFrame, p);
      return weights[Math.floor(q.y) * width + Math.floor(q.x)]!;
    };

    it(`lays the lips whatever the frame shows there, and the cheeks only where they agree with the frame's (frame ${f})`, () => {
      const plainWeights = blendWeights({ ...input, sample: plain });
      const hairedWeights = blendWeights({ ...input, sample: haired });
      // The lips differ from the frame's skin by far more than the sides allow: laid all the same.
      expect(weightAt(plainWeights, lipsMiddle)).toBeGreaterThan(0.99);
      expect(weightAt(hairedWeights, lipsMiddle)).toBeGreaterThan(0.99);
      for (const cheek of cheeks) {
        // The plain sample's skin agrees with the frame's cheek: laid there.
        expect(weightAt(plainWeights, cheek)).toBeGreaterThan(0.9);
        // The other's hair does not: the frame's cheek stays.
        expect(weightAt(hairedWeights, cheek)).toBeLessThan(0.1);
      }
      // Nowhere does hair lay more of the sample than skin.
      for (let p = 0; p < plainWeights.length; p++) expect(hairedWeights[p]!).toBeLessThanOrEqual(plainWeights[p]! + 1e-6);
      // The blend lays what the weights say: the cheek is the frame's skin, the lips the sample's.
      const blended = Buffer.from(frame);
      blendMouth({ ...input, frame: blended, sample: haired });
      const rgbAt = (p: Point) => {
        const q = applySimilarity(toFrame, p);
        const at = (Math.floor(q.y) * width + Math.floor(q.x)) * 4;
        return [blended[at]!, blended[at + 1]!, blended[at + 2]!];
      };
      // (At a weight under 0.1, the hair is at most a tenth of its 108 levels from the skin.)
      for (const cheek of cheeks) for (const [c, level] of rgbAt(cheek).entries()) expect(Math.abs(level - SKIN[c]!)).toBeLessThanOrEqual(12);
      expect(rgbAt(lipsMiddle)[0]).toBeLessThan(SKIN[0]! - 20);
      // What stays laid keeps its colour: the colour is matched on the seam where the sample is still laid, not on
      // the hair that gave way (matched there, it lifted the whole lower face by 28 levels; now 0-5, the seam's
      // points in the feather beside the hair).
      const chin = { x: lipsMiddle.x, y: lips.bottom + 0.25 * eyePx };
      for (const [c, level] of rgbAt(chin).entries()) expect(Math.abs(level - SKIN[c]!), `chin, channel ${c}`).toBeLessThanOrEqual(6);
      for (const [c, level] of rgbAt(lipsMiddle).entries()) expect(Math.abs(level - LIPS[c]!), `lips, channel ${c}`).toBeLessThanOrEqual(6);
    });

    it(`lays a sample's jaw dropped below the frame's whatever the frame shows there: the frame's chin never shows (frame ${f})`, () => {
      // The frame's neck, darker than any skin, below its own jaw's line; a sample of skin whose jaw (an open mouth's)
      // reaches 0.1 eye distances lower.
      const necked = Buffer.from(frame);
      const jaw = [5, 6, 7, 8, 9, 10, 11].map((j) => inFace[j]!);
      const jawY = (x: number) => {
        for (let k = 0; k + 1 < jaw.length; k++) {
          const [a, b] = [jaw[k]!, jaw[k + 1]!];
          if (x >= a.x && x <= b.x) return a.y + ((x - a.x) / (b.x - a.x)) * (b.y - a.y);
        }
        return Number.POSITIVE_INFINITY;
      };
      const toFacePoint = (x: number, y: number) => applySimilarity(toFace, { x: x + 0.5, y: y + 0.5 });
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const q = toFacePoint(x, y);
          if (q.y > jawY(q.x)) necked.set([60, 40, 35], (y * width + x) * 4);
        }
      const sheet: AtlasSheet = { width: tile.width, height: tile.height, rgb: Buffer.alloc(tile.width * tile.height * 3) };
      for (let i = 0; i < tile.width * tile.height; i++) sheet.rgb.set(SKIN, i * 3);
      const dropped: MouthSample = {
        ...geometry.samples[0]!,
        x: 0,
        y: 0,
        jaw: JAW_POINTS.map((j) => ({ x: inFace[j]!.x, y: inFace[j]!.y + 0.1 * eyePx })),
      };
      const weights = blendWeights({ frame: necked, width, height, landmarks, reference, eyePx, sheet, sample: dropped });
      const unlike = blendWeights({ frame, width, height, landmarks, reference, eyePx, sheet, sample: dropped });
      // Just below the frame's jaw at its lower corners (landmarks 6 and 10), beside the lips: the sample's jaw, as
      // much as on a frame of skin there (the feather of the cheek above may take a little).
      for (const j of [6, 10]) {
        const below = { x: inFace[j]!.x, y: inFace[j]!.y + 0.05 * eyePx };
        expect(weightAt(unlike, below)).toBeGreaterThan(0.7);
        expect(weightAt(weights, below), `landmark ${j}`).toBeGreaterThan(0.8 * weightAt(unlike, below));
      }
    });
  }
});
