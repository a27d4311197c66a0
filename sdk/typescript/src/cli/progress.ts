import type { Video } from '../types.ts';
import type { Io } from './output.ts';

const WIDTH = 20;
const SHARE: Record<string, number> = { queued: 0, rendering: 0.5, rendered: 1, failed: 1, cancelled: 1 };

/** One bar per clip, by the clip's status, and the video's status under them. */
function progressLines(video: Video): string[] {
  const lines = video.clips.map((clip) => {
    const filled = Math.round((SHARE[clip.status] ?? 0) * WIDTH);
    return `clip ${clip.index} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${clip.status}`;
  });
  return [...lines, `${video.video_id} ${video.status} (${video.progress.clips_rendered}/${video.progress.clips_total} clips)`];
}

/**
 * Draws progress on stderr: redrawn in place on a terminal, else a new block only when something changed (logs
 * stay short). Nothing with --json.
 */
export function progressPrinter(io: Io) {
  let previous: string[] = [];
  return (video: Video) => {
    if (io.json) return;
    const lines = progressLines(video);
    if (lines.join('\n') === previous.join('\n')) return;
    if (io.tty && previous.length) io.err(`\x1b[${previous.length}A\x1b[J${lines.join('\n')}`);
    else io.err(lines.join('\n'));
    previous = lines;
  };
}
