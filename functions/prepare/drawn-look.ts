/** A bot's look from drawn images: the caller's PNGs (with alpha) are the sprites; no detection needed. */
import { LookError, type PreparedLook } from './look.ts';

export interface DrawnImages {
  mouthClosed: Buffer;
  mouthOpen: Buffer;
  mouthHalf?: Buffer;
  eyesClosed?: Buffer;
}

/** Placeholder until the drawn pipeline lands: refuses every image set. */
export async function buildDrawnLook(images: DrawnImages): Promise<PreparedLook> {
  throw new LookError('image_invalid', `drawn bots are not available yet (${images.mouthClosed.length} bytes received)`);
}
