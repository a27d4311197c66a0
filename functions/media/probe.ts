/**
 * The probe: ffmpeg's input report (what `ffmpeg -i` prints), read. One binary probes and renders, so the probe and
 * the render read a file with the same demuxers and cannot disagree (see media.ts).
 */
import { limits } from '#domain/limits';
import { MediaToolError, runFfmpeg, SAFE_INPUT, tail } from './media.ts';

interface ProbedStream {
  index: number;
  codec_type: 'video' | 'audio' | 'subtitle' | 'data' | 'attachment';
  codec_name: string;
  width?: number;
  height?: number;
  /** Frames per second as declared (fps, else tbr), if any. */
  fps?: number;
}

export interface ProbeResult {
  /** The demuxer that read the file, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  format: { format_name: string; duration?: number };
  streams: ProbedStream[];
}

const STREAM_LINE = /^\s*Stream #0:(\d+)(?:\[0x[0-9a-f]+\])?(?:\([^)]*\))?: (Video|Audio|Subtitle|Data|Attachment): ([A-Za-z0-9_-]+)(.*)$/;

const rate = (value: string, suffix: string) => Number(value) * (suffix === 'k' ? 1000 : 1);

/**
 * Reads ffmpeg's input report. Containers' metadata is printed in the same report and is the file author's
 * text, so lines are read defensively: a forged "Stream" line can add a stream (every declared picture size is
 * checked, the largest wins) but cannot hide one; only the first "Input #0" line names the demuxer.
 * @internal Exported for its tests.
 */
export function parseInputReport(report: string): ProbeResult | undefined {
  const lines = report.split('\n');
  const input = lines.map((l) => /^Input #0, (.+), from '/.exec(l)).find(Boolean);
  if (!input) return undefined;
  const duration = /^ {2}Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/m.exec(report);
  const streams: ProbedStream[] = [];
  for (const line of lines) {
    const m = STREAM_LINE.exec(line);
    if (!m) continue;
    const stream: ProbedStream = { index: Number(m[1]), codec_type: m[2]!.toLowerCase() as ProbedStream['codec_type'], codec_name: m[3]! };
    const rest = m[4]!;
    const size = /, (\d{1,6})x(\d{1,6})(?=[ ,]|$)/.exec(rest);
    if (size) {
      stream.width = Number(size[1]);
      stream.height = Number(size[2]);
    }
    const fps = /, ([\d.]+)(k?) fps/.exec(rest) ?? /, ([\d.]+)(k?) tbr/.exec(rest);
    if (fps) stream.fps = rate(fps[1]!, fps[2]!);
    streams.push(stream);
  }
  return {
    format: {
      format_name: input[1]!,
      ...(duration ? { duration: Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) } : {}),
    },
    streams,
  };
}

/** Probes one of our own files (a rendered clip, a joined video) with its demuxer named. */
export async function probe(path: string, demuxer?: 'mov' | 'mp3'): Promise<ProbeResult> {
  const { stderr } = await runFfmpeg([...SAFE_INPUT, ...(demuxer ? ['-format_whitelist', demuxer, '-f', demuxer] : []), '-i', path], {
    budgetSeconds: 20,
    logLevel: 'info',
    anyExit: true,
    stallSeconds: false,
  });
  const result = parseInputReport(stderr);
  if (!result) throw new MediaToolError('ffmpeg could not read a file it wrote', null, tail(stderr));
  return result;
}

export async function probeDuration(path: string, demuxer?: 'mov' | 'mp3'): Promise<number> {
  const duration = (await probe(path, demuxer)).format.duration;
  if (duration === undefined || !Number.isFinite(duration)) throw new MediaToolError('a file we wrote has no duration', null, '');
  return duration;
}

/**
 * A caller's file identified by ffmpeg's own probe, with only the demuxers of `formatWhitelist` allowed (comma
 * separated) and the pictures' size bounded: its report and the demuxer that read it, or undefined for none of them.
 */
export async function identifyInput(
  path: string,
  formatWhitelist: string,
): Promise<{ probed: ProbeResult; demuxer: string; report: string } | undefined> {
  const { stderr } = await runFfmpeg(
    [
      ...SAFE_INPUT,
      '-format_whitelist',
      formatWhitelist,
      '-max_pixels',
      String(limits.maxBackgroundPixels),
      '-probesize',
      '5000000',
      '-analyzeduration',
      '5000000',
      '-i',
      path,
    ],
    { budgetSeconds: 20, logLevel: 'info', anyExit: true, stallSeconds: false },
  );
  const probed = parseInputReport(stderr);
  const demuxer = probed?.format.format_name.split(',')[0];
  return probed && demuxer ? { probed, demuxer, report: stderr } : undefined;
}
