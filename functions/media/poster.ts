import { POSTER_ENCODE_ARGS } from './formats.ts';
import { runFfmpeg } from './media.ts';

/**
 * A JPEG poster of one of our own MP4s (a joined video or a rendered clip): the frame at `atSeconds`, at the
 * video's own size. Returns the poster's path.
 */
export async function extractPoster(videoPath: string, atSeconds: number, posterPath: string): Promise<string> {
  await runFfmpeg(
    [
      '-y',
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'mov',
      '-f',
      'mov',
      '-ss',
      atSeconds.toFixed(3),
      '-i',
      videoPath,
      ...POSTER_ENCODE_ARGS,
      posterPath,
    ],
    { budgetSeconds: 30 },
  );
  return posterPath;
}
