/**
 * A photo look's head frames: the mouth levels (`m0`..`m4`), the mouth shapes (`r1 r2 w1 w2 fv`), each with eyes open
 * and closed, made by the landmark-driven mesh warp of the person's face (./mesh-warp.ts, ./mouth-shapes.ts) in a box
 * about the face, each carrying only the pixels the warp changes (feathered).
 */
import { MOUTH_SHAPES, SHAPE_FRAMES } from '#domain/look';
import { CANVAS } from '#media/raster/card';
import { boxBlur, dilate } from '#media/raster/field';
import type { Picture } from '#media/raster/picture';
import type { Point } from './faces.ts';
import { anchorPoints, closeLips, type FaceGeometry, openness, paintLashes, targetLandmarks, triangulate, warp } from './mesh-warp.ts';
import { paintMouth, paintPucker } from './mouth-inside.ts';
import { SHAPE_POSES, shapeWarp } from './mouth-shapes.ts';

export const MOUTH_LEVELS = 5;

type Box = { x: number; y: number; width: number; height: number };
type Frame = { key: string; picture: Picture };

/**
 * The head frames of the person (`density` layer pixels per canvas unit) whose face has `landmarks` (on the canvas,
 * jaw `faceWidth` wide): the head box on the canvas (`box`), the same box in the layers' pixels (`fine`), and the
 * frames, `fine`-sized, in the manifest's order of making (levels, then shapes; eyes open, then closed).
 */
export function headFrames(person: Picture, landmarks: Point[], faceWidth: number, density: number): { box: Box; fine: Box; frames: Frame[] } {
  const { width, height } = person;
  // The head box (on the canvas): the face from above the brows to below the lowest the chin goes.
  const xs = landmarks.map((p) => p.x),
    ys = landmarks.map((p) => p.y);
  const bx0 = Math.max(0, Math.floor(Math.min(...xs) - faceWidth * 0.25));
  const bx1 = Math.min(CANVAS.width, Math.ceil(Math.max(...xs) + faceWidth * 0.25));
  const by0 = Math.max(0, Math.floor(Math.min(...ys) - faceWidth * 0.2));
  const by1 = Math.min(CANVAS.height, Math.ceil(Math.max(...ys) + faceWidth * 0.45));
  const box = { x: bx0, y: by0, width: bx1 - bx0, height: by1 - by0 };
  // The same box in the layers' pixels: the head frames are made there, at the body's resolution.
  const fine = {
    x: Math.round(box.x * density),
    y: Math.round(box.y * density),
    width: Math.min(width - Math.round(box.x * density), Math.round(box.width * density)),
    height: Math.min(height - Math.round(box.y * density), Math.round(box.height * density)),
  };
  const headPerson: Picture = { width: fine.width, height: fine.height, data: Buffer.alloc(fine.width * fine.height * 4) };
  for (let y = 0; y < fine.height; y++)
    person.data.copy(headPerson.data, y * fine.width * 4, ((y + fine.y) * width + fine.x) * 4, ((y + fine.y) * width + fine.x + fine.width) * 4);
  const local = landmarks.map((p) => ({ x: p.x * density - fine.x, y: p.y * density - fine.y }));
  const geometry = { landmarks: local, faceWidth: faceWidth * density };
  const anchors = anchorPoints(geometry, { x: 0, y: 0, width: fine.width - 1, height: fine.height - 1 });

  const moved = new Uint8Array(fine.width * fine.height);
  // The open mouths are warped from the face with its lips closed over whatever showed between them (a smile's
  // teeth), so that no stretched row of the photo's teeth shows about the painted inside; m0 is the face as it is.
  const closed = closeLips(headPerson, geometry.landmarks, geometry.faceWidth);
  const frames = [...levelFrames(headPerson, closed, geometry, anchors, moved), ...shapeFrames(closed, geometry, anchors, moved)];
  // Each head frame carries only the changed region (feathered): elsewhere the body shows, pixel for pixel.
  const feather = Math.round(3 * density);
  const reach = boxBlur(dilate(moved, fine.width, fine.height, feather), fine.width, fine.height, feather);
  for (const { picture } of frames) for (let i = 0; i < reach.length; i++) picture.data[i * 4 + 3] = Math.round(picture.data[i * 4 + 3]! * reach[i]!);
  return { box, fine, frames };
}

/** The mouth levels, eyes open and closed, warped from the face (the open ones from it with its lips closed); the pixels they change are marked in `moved`. */
function levelFrames(headPerson: Picture, closed: Picture, geometry: FaceGeometry, anchors: Point[], moved: Uint8Array): Frame[] {
  const from = [...geometry.landmarks, ...anchors];
  const triangles = triangulate([...targetLandmarks(geometry, 1, false), ...anchors]);
  const frames: Frame[] = [];
  for (let level = 0; level < MOUTH_LEVELS; level++) {
    for (const eyesClosed of [false, true]) {
      const to = [...targetLandmarks(geometry, openness(level, MOUTH_LEVELS), eyesClosed), ...anchors];
      const result = warp(level > 0 ? closed : headPerson, triangles, from, to);
      if (level > 0) paintMouth(result.picture, to, geometry.faceWidth, result.moved);
      if (eyesClosed) paintLashes(result.picture, to, geometry.faceWidth, result.moved);
      for (let i = 0; i < moved.length; i++) moved[i] ||= result.moved[i]!;
      frames.push({ key: `m${level}-e${eyesClosed ? 'c' : 'o'}`, picture: result.picture });
    }
  }
  return frames;
}

/**
 * The mouth shapes (round, wide, lower lip to the teeth), eyes open and closed, warped from the face with its lips
 * closed; the pixels they change are marked in `moved`.
 */
function shapeFrames(closed: Picture, geometry: FaceGeometry, anchors: Point[], moved: Uint8Array): Frame[] {
  const frames: Frame[] = [];
  for (const key of MOUTH_SHAPES.flatMap((shape) => SHAPE_FRAMES[shape])) {
    const pose = SHAPE_POSES[key]!;
    for (const eyesClosed of [false, true]) {
      const { from, to, triangles, opening } = shapeWarp(geometry, pose, eyesClosed, anchors);
      const result = warp(closed, triangles, from, to);
      paintPucker(result.picture, to, geometry.faceWidth, result.moved, pose.round);
      paintMouth(result.picture, to, geometry.faceWidth, result.moved, { opening, teeth: pose.teeth });
      if (eyesClosed) paintLashes(result.picture, to, geometry.faceWidth, result.moved);
      for (let i = 0; i < moved.length; i++) moved[i] ||= result.moved[i]!;
      frames.push({ key: `${key}-e${eyesClosed ? 'c' : 'o'}`, picture: result.picture });
    }
  }
  return frames;
}
