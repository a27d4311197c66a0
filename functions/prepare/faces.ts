/**
 * Faces and their 68 landmarks with @vladmandic/face-api (SSD MobileNet v1 detector + 68-point landmark net,
 * weights shipped in the package's model/ folder) on TensorFlow.js's WASM backend: no native build, no
 * download at run time. Loaded once per process.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Point {
  x: number;
  y: number;
}

export interface Face {
  /** Detector box, px of the picture given. */
  box: { x: number; y: number; width: number; height: number };
  score: number;
  /** The 68 landmarks (iBUG order: jaw 0-16, brows 17-26, nose 27-35, eyes 36-47, lips 48-67). */
  landmarks: Point[];
}

const require = createRequire(import.meta.url);
type FaceApi = typeof import('@vladmandic/face-api');
type Tf = typeof import('@tensorflow/tfjs');
let ready: Promise<{ faceapi: FaceApi; tf: Tf }> | undefined;

function load(): Promise<{ faceapi: FaceApi; tf: Tf }> {
  ready ??= (async () => {
    const tf = require('@tensorflow/tfjs') as Tf;
    const wasm = require('@tensorflow/tfjs-backend-wasm') as typeof import('@tensorflow/tfjs-backend-wasm');
    // The .wasm binaries lie beside the backend's entry file (dist/); never fetched from a CDN.
    wasm.setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`);
    await tf.setBackend('wasm');
    await tf.ready();
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
    const models = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(models);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(models);
    return { faceapi, tf };
  })();
  return ready;
}

/** Loads the models now (a worker can warm up before its first job). */
export async function loadFaces(): Promise<void> {
  await load();
}

/** Every face found in an RGB picture (3 bytes a pixel), most confident first. */
export async function findFaces(rgb: Buffer, width: number, height: number): Promise<Face[]> {
  const { faceapi, tf } = await load();
  const tensor = tf.tensor3d(new Uint8Array(rgb.buffer, rgb.byteOffset, width * height * 3), [height, width, 3], 'int32');
  try {
    const found = await faceapi
      .detectAllFaces(tensor as never, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5, maxResults: 20 }))
      .withFaceLandmarks();
    return found
      .map((f) => ({
        box: { x: f.detection.box.x, y: f.detection.box.y, width: f.detection.box.width, height: f.detection.box.height },
        score: f.detection.score,
        landmarks: f.landmarks.positions.map((p) => ({ x: p.x, y: p.y })),
      }))
      .sort((a, b) => b.score - a.score);
  } finally {
    tensor.dispose();
  }
}

/**
 * The 68 landmarks of the one face filling a square RGB crop (3 bytes a pixel), px of the crop: the landmark net
 * alone, without the detector (about 25 times cheaper), for a face already found and followed from frame to frame.
 */
export async function landmarksInCrop(rgb: Buffer, side: number): Promise<Point[]> {
  const { faceapi, tf } = await load();
  const tensor = tf.tensor3d(new Uint8Array(rgb.buffer, rgb.byteOffset, side * side * 3), [side, side, 3], 'int32');
  try {
    const found = (await faceapi.nets.faceLandmark68Net.detectLandmarks(tensor as never)) as { positions: Point[] };
    return found.positions.map((p) => ({ x: p.x, y: p.y }));
  } finally {
    tensor.dispose();
  }
}
