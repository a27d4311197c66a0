/**
 * What must never appear in a message the public sees (a video's error, a webhook's error, a delivery attempt's
 * error): file paths, ffmpeg's, libvips' or Node's own text, addresses, stack traces. The suites that read videos and
 * webhooks (test/support/reliability.ts, the media tests) pass every failure message through this.
 */
const INTERNALS: [string, RegExp][] = [
  ['a file path', /(^|[\s'"(=])\/(tmp|var|work|opt|home|usr|root|proc|etc|dev|mnt)\b/],
  ['a Windows path', /\b[A-Za-z]:\\/],
  ['a work directory', /vidbot-(render|assemble)|render-vid_|assemble-vid_|\.local\//],
  ['ffmpeg or ffprobe by name', /\bff(mpeg|probe)\b/i],
  [
    'ffmpeg log text',
    /Stream #|Input #|Error while|Invalid data found|Picture size|Could not find codec|\bmoov atom\b|\[(h264|png|mov|matroska|mpegts|hls|concat|null|IMGUTILS)[^\]]*@ 0x/,
  ],
  ['an exit status or signal', /exited with|SIGKILL|SIGTERM|exit code/i],
  ['a stack trace', /\n\s+at |\bat [\w.<>]+ \(|node:internal|file:\/\//],
  ['a Node error code', /\bE(CONNREFUSED|CONNRESET|NOTFOUND|ADDRINUSE|ACCES|NOENT|PIPE|AI_AGAIN|TIMEDOUT)\b|getaddrinfo|UND_ERR/],
  ['an IP address', /\b\d{1,3}(\.\d{1,3}){3}\b|\[?[0-9a-f]{1,4}(:[0-9a-f]{0,4}){2,7}\]?/i],
  ['a host name', /\blocalhost\b|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(internal|local|lan|corp|amazonaws\.com)\b/i],
  ['a URL', /https?:\/\//i],
  [
    "an image library's text",
    /\bvips|\blib(spng|png|jpeg|webp)\b|\b(jpeg|png|webp|gif|heif|tiff|svg|magick|jp2k|jxl|pdf)load(_buffer|_source)?\b|Input (buffer|file) (has|is|contains)|corrupt header|Premature end of/i,
  ],
];

/** The kinds of internals found in `message` (empty when it is fit to show). */
export function internalsIn(message: string): string[] {
  return INTERNALS.filter(([, pattern]) => pattern.test(message)).map(([what]) => what);
}

/** Fails when a public message carries internals. */
export function assertPublicMessage(message: string | null | undefined, where: string): void {
  if (!message) return;
  const found = internalsIn(message);
  if (found.length) throw new Error(`${where}: a public message carries ${found.join(', ')}: ${JSON.stringify(message)}`);
}
