/**
 * The prepare image's self-check, bundled into it as probe.mjs by bundle-prepare.ts (same externals as index.mjs,
 * so it loads sharp, onnxruntime-node, TensorFlow.js's WASM backend and the models from the image's own
 * node_modules, as the handler does). check:lambda imports it and calls `probe`; in the image:
 * `node probe.mjs <photo.jpg> [look|models]`.
 *
 * - `look`: the whole photo look (decode, face and landmarks, matting, mesh warp, PNGs), as a preparation does.
 * - `models`: sharp decodes the photo to at most 320 px a side, the models are loaded (face-api's nets on the WASM
 *   backend; the ISNet session created, i.e. the model parsed and optimised by onnxruntime's native library) and
 *   one detection with landmarks runs. ISNet itself does not run: its input is 1024x1024 whatever the picture, and
 *   under qemu one inference took more than 10 minutes (check:lambda runs `look` natively, `models` under qemu).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { findFaces } from '../../functions/prepare/faces.ts';
import { buildPhotoLook, loadPhotoModels } from '../../functions/prepare/photo-look.ts';

interface ProbeResult {
  mode: 'look' | 'models';
  modelsMs: number;
  workMs: number;
  /** look: the look's kind and files. */
  look?: string;
  files?: string[];
  bytes?: number;
  /** models: what the detection found. */
  faces?: number;
  landmarks?: number;
}

export async function probe(event: { photo: string; mode?: 'look' | 'models' }): Promise<ProbeResult> {
  const mode = event.mode ?? 'look';
  const image = readFileSync(event.photo);
  let t = performance.now();
  await loadPhotoModels();
  const modelsMs = Math.round(performance.now() - t);
  t = performance.now();
  if (mode === 'look') {
    const look = await buildPhotoLook(image);
    const files = [...look.files.keys()].sort();
    const bytes = [...look.files.values()].reduce((sum, file) => sum + file.length, 0);
    return { mode, modelsMs, workMs: Math.round(performance.now() - t), look: look.manifest.look, files, bytes };
  }
  const { data, info } = await sharp(image).rotate().resize(320, 320, { fit: 'inside' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const faces = await findFaces(data, info.width, info.height);
  return { mode, modelsMs, workMs: Math.round(performance.now() - t), faces: faces.length, landmarks: faces[0]?.landmarks.length ?? 0 };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [photo, mode] = process.argv.slice(2);
  if (!photo || (mode && mode !== 'look' && mode !== 'models')) {
    console.error('usage: node probe.mjs <photo> [look|models]');
    process.exitCode = 2;
  } else {
    console.log(JSON.stringify(await probe({ photo, mode: mode as 'look' | 'models' | undefined })));
  }
}
