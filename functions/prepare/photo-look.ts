/** A bot's look from a photo of a person (face detection, landmarks, matting, mouth and eye warps). */
import { LookError, type PreparedLook } from './look.ts';

/** Placeholder until the photo pipeline lands: refuses every image. */
export async function buildPhotoLook(image: Buffer): Promise<PreparedLook> {
  throw new LookError('image_invalid', `photo bots are not available yet (${image.length} bytes received)`);
}
