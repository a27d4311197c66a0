/**
 * A bot's look from a photo of a person: the largest face is found (face-api: detector + 68 landmarks), a
 * head-and-shoulders portrait is framed around it, the person is cut from the backdrop with ISNet matting,
 * and the mouth levels, the mouth shapes (round, wide, fv) and closed eyes are made by a landmark-driven mesh warp
 * of the real face.
 *
 * Layers (the same kind as a built-in look's, see functions/render/bots/ava/manifest.json):
 * - panel: the photo's own backdrop (the person's place filled from around it), on the card's rounded shape;
 * - back: empty (a photo has no separate back hair);
 * - body: the matted person, mouth closed and eyes open;
 * - head frames (`m0`..`m4`, `r1 r2 w1 w2 fv`, eyes open and closed): only the pixels the warp changes (mouth, jaw,
 *   eyelids, feathered), drawn over the body (./photo-head.ts).
 * `rig: 'single-picture'`: head and body are one picture, so they sway together (no seam at the neck).
 */
import sharp from 'sharp';
import { type BotManifest, MOUTH_SHAPES } from '#domain/look';
import { CANVAS, CARD, cardAlpha } from '#media/raster/card';
import { boxBlur, dilate } from '#media/raster/field';
import { fillHole } from '#media/raster/fill-hole';
import { type Picture, rgbaOf } from '#media/raster/picture';
import { type Face, findFaces, loadFaces, type Point } from './faces.ts';
import { checkHeader, decode } from './image-input.ts';
import { png } from './layers.ts';
import { LookError, type PreparedLook } from './look.ts';
import { loadMatting, matte } from './matting.ts';
import { headFrames, MOUTH_LEVELS } from './photo-head.ts';

/** Jaw width (landmark 0 to 16) on the canvas, and where the eyes sit: a head-and-shoulders framing. */
const FACE_WIDTH = 176;
const EYES_AT = { x: 260, y: 226 };
/** A face narrower than this (detector box, px of the photo after orientation) is refused: too little detail. */
const MIN_FACE_PX = 80;
/**
 * Layer pixels per canvas unit at most: the layers are made at the photo's own detail up to twice the canvas (a
 * `full` presenter at 1080p is 1.65x the canvas in 16:9), never enlarged from a smaller photo.
 */
const MAX_DENSITY = 2;
/** Photos are decoded at most this size a side; faces are searched at most DETECT_SIDE. */
const DECODE_SIDE = 4096;
const DETECT_SIDE = 960;

/**
 * Loads the face and matting models (once per process; buildPhotoLook does it on first use). A worker may call it
 * at start so that its first bot does not wait for them.
 */
export async function loadPhotoModels(): Promise<void> {
  await Promise.all([loadFaces(), loadMatting()]);
}

export async function buildPhotoLook(image: Buffer): Promise<PreparedLook> {
  checkHeader(image);
  const photo = await decode(image, 3, DECODE_SIDE);
  const face = await largestFace(photo);
  const crop = await frame(photo, face);
  // Matting, the person's territory and the backdrop's hole are found on the canvas; the layers are made at `density`.
  const alpha = isolate(await matte(rgbaOf(crop.rgb, 255), CANVAS.width, CANVAS.height), crop.landmarks, crop.others);
  // The extended edges beside and above the photo are not the person (below it, the bust goes on).
  for (let i = 0; i < alpha.length; i++) {
    const x = i % CANVAS.width,
      y = (i - x) / CANVAS.width;
    if (x < crop.inside.x0 || x >= crop.inside.x1 || y < crop.inside.y0) alpha[i] = 0;
  }
  const { density, fine } = crop;
  const fineAlpha = upsample(alpha, CANVAS.width, CANVAS.height, fine.width, fine.height);
  const person = rgbaOf(fine.rgb, 0);
  for (let i = 0; i < fineAlpha.length; i++) person[i * 4 + 3] = Math.round(fineAlpha[i]! * 255);
  const hole = dilate(
    Uint8Array.from(alpha, (a) => (a > 0.04 ? 1 : 0)),
    CANVAS.width,
    CANVAS.height,
    5,
  );
  const backdrop = fillHole(fine.rgb, upsample(hole, CANVAS.width, CANVAS.height, fine.width, fine.height), fine.width, fine.height);
  return assemble(backdrop, { width: fine.width, height: fine.height, data: person }, crop.landmarks, density);
}

/** A field on the canvas, resampled (bilinear) to `width` x `height`. */
function upsample(field: ArrayLike<number>, sw: number, sh: number, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  const fx = sw / width,
    fy = sh / height;
  for (let y = 0; y < height; y++) {
    const v = Math.min(sh - 1, Math.max(0, (y + 0.5) * fy - 0.5));
    const y0 = Math.floor(v),
      y1 = Math.min(sh - 1, y0 + 1),
      ty = v - y0;
    for (let x = 0; x < width; x++) {
      const u = Math.min(sw - 1, Math.max(0, (x + 0.5) * fx - 0.5));
      const x0 = Math.floor(u),
        x1 = Math.min(sw - 1, x0 + 1),
        tx = u - x0;
      const top = field[y0 * sw + x0]! * (1 - tx) + field[y0 * sw + x1]! * tx;
      const bottom = field[y1 * sw + x0]! * (1 - tx) + field[y1 * sw + x1]! * tx;
      out[y * width + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return out;
}

async function largestFace(photo: { data: Buffer; width: number; height: number }): Promise<{ face: Face; others: Face[] }> {
  const factor = Math.min(1, DETECT_SIDE / Math.max(photo.width, photo.height));
  const small =
    factor < 1
      ? await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
          .resize(Math.round(photo.width * factor), Math.round(photo.height * factor), { fit: 'fill' })
          .raw()
          .toBuffer({ resolveWithObject: true })
      : { data: photo.data, info: { width: photo.width, height: photo.height } };
  const found = await findFaces(small.data, small.info.width, small.info.height);
  const back = (p: Point) => ({ x: p.x / (small.info.width / photo.width), y: p.y / (small.info.height / photo.height) });
  const faces = found.map((f) => {
    const a = back({ x: f.box.x, y: f.box.y });
    const b = back({ x: f.box.x + f.box.width, y: f.box.y + f.box.height });
    return { ...f, box: { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y }, landmarks: f.landmarks.map(back) };
  });
  if (!faces.length) throw new LookError('no_face_found', 'no face was found in the image');
  faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  const [face, ...others] = faces as [Face, ...Face[]];
  if (face.box.width < MIN_FACE_PX) {
    throw new LookError('face_too_small', `the largest face is ${Math.round(face.box.width)} px wide; at least ${MIN_FACE_PX} px are needed`);
  }
  return { face, others };
}

/** The portrait: the photo mapped onto the canvas (jaw FACE_WIDTH wide, eyes at EYES_AT), edges extended softly. */
async function frame(photo: { data: Buffer; width: number; height: number }, found: { face: Face; others: Face[] }) {
  const lm = found.face.landmarks;
  const jaw = Math.hypot(lm[16]!.x - lm[0]!.x, lm[16]!.y - lm[0]!.y);
  const scale = FACE_WIDTH / jaw;
  const eyes = mean(lm.slice(36, 48));
  const left = eyes.x - EYES_AT.x / scale;
  const top = eyes.y - EYES_AT.y / scale;
  const ix0 = Math.max(0, Math.floor(left)),
    iy0 = Math.max(0, Math.floor(top));
  const ix1 = Math.min(photo.width, Math.ceil(left + CANVAS.width / scale)),
    iy1 = Math.min(photo.height, Math.ceil(top + CANVAS.height / scale));
  const portrait = (density: number) => {
    const width = Math.round(CANVAS.width * density),
      height = Math.round(CANVAS.height * density);
    const padL = Math.max(0, Math.round((ix0 - left) * scale * density)),
      padT = Math.max(0, Math.round((iy0 - top) * scale * density));
    const cw = Math.max(1, Math.min(width - padL, Math.round((ix1 - ix0) * scale * density)));
    const ch = Math.max(1, Math.min(height - padT, Math.round((iy1 - iy0) * scale * density)));
    return { width, height, padL, padT, cw, ch };
  };
  const render = async (p: ReturnType<typeof portrait>) =>
    extendSoftly(
      await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
        .extract({ left: ix0, top: iy0, width: ix1 - ix0, height: iy1 - iy0 })
        .resize(p.cw, p.ch, { fit: 'fill', kernel: 'lanczos3' })
        .raw()
        .toBuffer(),
      p,
    );
  const { padL, padT, cw, ch } = portrait(1);
  const rgb = await render(portrait(1));
  // As much of the photo's own detail as it has, up to MAX_DENSITY (in steps of 0.05): never an enlargement.
  const density = Math.max(1, Math.min(MAX_DENSITY, Math.floor((20 * jaw) / FACE_WIDTH) / 20));
  const fineSize = portrait(density);
  const fine = { width: fineSize.width, height: fineSize.height, rgb: density === 1 ? rgb : await render(fineSize) };
  const sx = cw / (ix1 - ix0),
    sy = ch / (iy1 - iy0);
  const toCanvas = (p: Point) => ({ x: (p.x - ix0) * sx + padL, y: (p.y - iy0) * sy + padT });
  return {
    rgb,
    /** Layer pixels per canvas unit, and the portrait at that resolution. */
    density,
    fine,
    /** Columns and rows that hold the photo itself (outside: its edges extended; below the photo the bust may go on). */
    inside: { x0: padL, x1: padL + cw, y0: padT },
    landmarks: lm.map(toCanvas),
    others: found.others.map((f) => ({
      centre: toCanvas({ x: f.box.x + f.box.width / 2, y: f.box.y + f.box.height / 2 }),
      width: f.box.width * sx,
      height: f.box.height * sy,
    })),
  };
}

/**
 * The photo (`cw` x `ch` RGB) placed at (`padL`, `padT`) on a `width` x `height` picture, the rest filled from its
 * edges: each pixel outside is the mean of the photo about the nearest edge pixel, over a window that widens with the
 * distance (beside and above: an ever softer blur of the edge; below: the bust's last rows going on, little blurred
 * across). Nothing of the photo is repeated or mirrored, so no feature shows twice.
 */
/** @internal Exported for its tests. */
export function extendSoftly(rgb: Buffer, p: { width: number; height: number; padL: number; padT: number; cw: number; ch: number }): Buffer {
  const { width, height, padL, padT, cw, ch } = p;
  if (padL === 0 && padT === 0 && cw === width && ch === height) return rgb;
  // Summed-area table of the photo, per channel.
  const sat = new Float64Array((cw + 1) * (ch + 1) * 3);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      for (let n = 0; n < 3; n++) {
        const i = ((y + 1) * (cw + 1) + x + 1) * 3 + n;
        sat[i] = rgb[(y * cw + x) * 3 + n]! + sat[i - 3]! + sat[i - (cw + 1) * 3]! - sat[i - (cw + 1) * 3 - 3]!;
      }
    }
  }
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const px = x - padL,
        py = y - padT;
      if (px >= 0 && px < cw && py >= 0 && py < ch) {
        rgb.copy(out, o, (py * cw + px) * 3, (py * cw + px) * 3 + 3);
        continue;
      }
      const cx = Math.min(cw - 1, Math.max(0, px)),
        cy = Math.min(ch - 1, Math.max(0, py));
      const side = Math.abs(px - cx) + Math.max(0, -py);
      const below = Math.max(0, py - (ch - 1));
      const rx = Math.round(2 + 0.9 * side + 0.3 * below),
        ry = Math.round(2 + 0.9 * side);
      const x0 = Math.max(0, cx - rx),
        x1 = Math.min(cw, cx + rx + 1),
        y0 = Math.max(0, cy - ry),
        y1 = Math.min(ch, cy + ry + 1);
      const area = (x1 - x0) * (y1 - y0);
      for (let n = 0; n < 3; n++) {
        const at = (xx: number, yy: number) => sat[(yy * (cw + 1) + xx) * 3 + n]!;
        out[o + n] = Math.round((at(x1, y1) - at(x0, y1) - at(x1, y0) + at(x0, y0)) / area);
      }
    }
  }
  return out;
}

const mean = (points: Point[]): Point => ({
  x: points.reduce((s, p) => s + p.x, 0) / points.length,
  y: points.reduce((s, p) => s + p.y, 0) / points.length,
});

/**
 * ISNet mattes everyone in the picture: keep the chosen person only. Each pixel belongs to the nearest face
 * (horizontal distance in face widths below a face's top, people standing side by side; distance from the top of
 * the head above it), with a soft edge of a few pixels where two territories meet; then only the region connected
 * to this face (alpha > 0.5) is kept, its edge softened.
 */
function isolate(alpha: Float32Array, landmarks: Point[], others: { centre: Point; width: number; height: number }[]): Float32Array {
  const { width, height } = CANVAS;
  const nose = landmarks[30]!;
  const xs = landmarks.map((p) => p.x),
    ys = landmarks.map((p) => p.y);
  const self = {
    centre: { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 },
    width: Math.max(...xs) - Math.min(...xs),
    height: Math.max(...ys) - Math.min(...ys),
  };
  const distance = (f: typeof self, x: number, y: number) => {
    const dx = Math.abs(x - f.centre.x) / f.width;
    const above = f.centre.y - f.height - y;
    return above > 0 ? Math.hypot(dx, above / f.height) : dx;
  };
  if (others.length) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        if (alpha[i]! <= 0) continue;
        // The chosen face's territory is a little narrower: a neighbour's hair at the boundary goes with them.
        const mine = distance(self, x + 0.5, y + 0.5) / 0.85;
        const nearest = Math.min(...others.map((o) => distance(o, x + 0.5, y + 0.5)));
        // About 6 px of soft edge where the two territories meet.
        alpha[i] = alpha[i]! * Math.min(1, Math.max(0, 0.5 + ((nearest - mine) * self.width) / 6));
      }
    }
  }
  const keep = new Uint8Array(width * height);
  const start = Math.round(nose.y) * width + Math.round(nose.x);
  const stack = [start];
  keep[start] = 1;
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % width,
      y = (i - x) / width;
    for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1]) {
      if (j >= 0 && !keep[j] && alpha[j]! > 0.5) {
        keep[j] = 1;
        stack.push(j);
      }
    }
  }
  const soft = boxBlur(dilate(keep, width, height, 3), width, height, 3);
  return alpha.map((a, i) => a * soft[i]!);
}

/**
 * The look's files from the backdrop and the person at `density` layer pixels per canvas unit (their size), and the
 * face's landmarks on the canvas.
 */
async function assemble(backdrop: Buffer, person: Picture, landmarks: Point[], density: number): Promise<PreparedLook> {
  const { width, height } = person;
  const faceWidth = Math.hypot(landmarks[16]!.x - landmarks[0]!.x, landmarks[16]!.y - landmarks[0]!.y);
  const panel = rgbaOf(backdrop, 0);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) panel[(y * width + x) * 4 + 3] = Math.round(cardAlpha(x, y, density) * 255);

  const { box, fine, frames } = headFrames(person, landmarks, faceWidth, density);

  const files = new Map<string, Buffer>();
  const manifestFrames: Record<string, string> = {};
  const [panelPng, backPng, bodyPng] = await Promise.all([
    png({ width, height, data: panel }),
    png({ width, height, data: Buffer.alloc(width * height * 4) }),
    png(person),
  ]);
  files.set('panel.png', panelPng).set('back.png', backPng).set('body.png', bodyPng);
  await Promise.all(
    frames.map(async ({ key, picture }) => {
      manifestFrames[key] = `head-${key}.png`;
      files.set(`head-${key}.png`, await png(picture));
    }),
  );
  const restingMouth = mean(landmarks.slice(60, 68));
  const head = frames[0]!;
  files.set(
    'preview.png',
    await sharp(panelPng)
      .composite([{ input: bodyPng }, { input: await png(head.picture), left: fine.x, top: fine.y }])
      .png()
      .toBuffer()
      .then((composed) => sharp(composed).resize(512, 512, { fit: 'cover', position: 'top' }).png().toBuffer()),
  );
  const manifest: BotManifest = {
    look: 'photo',
    ...CANVAS,
    density,
    panel: { file: 'panel.png', ...CARD },
    back: 'back.png',
    body: 'body.png',
    head: { ...box, frames: Object.fromEntries(Object.entries(manifestFrames).sort()) },
    mouthLevels: MOUTH_LEVELS,
    mouthShapes: [...MOUTH_SHAPES],
    mouth: { x: Math.round(restingMouth.x), y: Math.round(restingMouth.y) },
    anchor: { x: CARD.x + CARD.width / 2, y: CARD.y + CARD.height },
    preview: 'preview.png',
    rig: 'single-picture',
    // The head rolls about a point on the neck below the chin; the brows lift above the eyes.
    face: {
      pivot: { x: landmarks[8]!.x, y: landmarks[8]!.y + 0.2 * faceWidth },
      eyes: [mean(landmarks.slice(36, 42)), mean(landmarks.slice(42, 48))],
      brows: [mean(landmarks.slice(17, 22)), mean(landmarks.slice(22, 27))],
    },
  };
  files.set('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  return { manifest, files };
}
