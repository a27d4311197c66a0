import { wavFromPcm16 } from '#media/wav';

const RATE = 8000;

/**
 * `seconds` of a 220-Hz tone that swells and fades every second (a voice's loudness moves), as an 8-kHz WAV: a
 * recording with no silence to trim, of an exact length.
 */
export function swellingTone(seconds: number): Buffer {
  const pcm = Buffer.alloc(Math.round(seconds * RATE) * 2);
  for (let i = 0; i < pcm.length / 2; i++) {
    const t = i / RATE;
    pcm.writeInt16LE(Math.round(12000 * (0.6 + 0.4 * Math.sin(2 * Math.PI * t)) * Math.sin(2 * Math.PI * 220 * t)), i * 2);
  }
  return wavFromPcm16(pcm, RATE);
}
