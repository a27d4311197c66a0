/**
 * Every download of a caller's media (a background, a music file, a clip's recording or images, a bot's photo or
 * footage):
 * through the address guard (no link-local or metadata addresses, no private ranges on AWS, every redirect
 * re-checked), at the media pace (a host that never answers or trickles is given up early), streamed to a file with
 * the size limit counted while it streams, so a 300 MB recording never sits in memory. What the caller can fix
 * becomes a JobFailedError in our words alone (never the URL, which a redirect may have pointed at an internal host, nor
 * the network stack's); a passing network fault, a 5xx or a 429 is rethrown, so the job is retried.
 */
import type { Mode } from '#commons/config';
import { FetchError, HttpStatusError, IncompleteBodyError } from '#commons/net/errors';
import { guardedFetch, MEDIA_PACE } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import { JobFailedError } from '#domain/errors';

export interface MediaDownload {
  mode: Mode;
  maxBytes: number;
  timeoutMs: number;
  /** The failure codes' prefix: `background` gives `background_too_large`, `background_unavailable`, … */
  code: string;
  /** How messages name the file and its URL: `the music file` is larger…, `the music URL` answered HTTP 404. */
  noun: { file: string; url: string };
  /**
   * A timeout and a refused address get codes of their own (`<code>_timeout`, `<code>_not_allowed`) rather than
   * `<code>_unavailable`: the codes backgrounds and music answer with.
   * @default false
   */
  ownCodes?: boolean;
}

const MIB = 1024 * 1024;
/** A body cut short is asked for again only with this much of the time limit left (the pace's first byte alone is 5 s). */
const MIN_RETRY_MS = 5_000;

function failureOf(error: FetchError, what: MediaDownload): JobFailedError {
  const { code, noun } = what;
  const unavailable = `${code}_unavailable`;
  switch (error.code) {
    case 'too_large':
      return new JobFailedError(`${code}_too_large`, `${noun.file} is larger than ${what.maxBytes / MIB} MiB`);
    case 'timeout':
      return new JobFailedError(
        what.ownCodes ? `${code}_timeout` : unavailable,
        `${noun.file} did not download within ${what.timeoutMs / 1000} s; use a faster host`,
      );
    case 'address_not_allowed':
      return new JobFailedError(
        what.ownCodes ? `${code}_not_allowed` : unavailable,
        `${noun.url} leads to an address we do not fetch from (private, loopback or link-local)`,
      );
    case 'invalid_url':
      return new JobFailedError(unavailable, `${noun.url} (or a redirect it gave) is not a valid http(s) URL`);
    case 'too_many_redirects':
      return new JobFailedError(unavailable, `${noun.url} redirected too many times`);
    case 'network_error':
      return new JobFailedError(unavailable, `${noun.url} could not be reached (no such host, or the connection failed)`);
    case 'http_error':
      return new JobFailedError(unavailable, `${noun.url} did not answer with the file`);
    case 'incomplete_body':
      return new JobFailedError(
        unavailable,
        `${noun.url} closed the connection before the whole file was sent; check the server, then send it again`,
      );
  }
}

/**
 * Downloads `url` into `path` (removed if the download fails); returns the bytes written. A body the server ends
 * early is asked for once more at once (a server restarted in the middle of the file); a second time, it is the
 * caller's to fix.
 */
export async function fetchMediaToFile(url: string, path: string, what: MediaDownload): Promise<number> {
  // Both attempts within the one time limit: the functions' timeouts are sized to one download.
  const deadline = Date.now() + what.timeoutMs;
  try {
    const download = (timeoutMs: number) =>
      guardedFetch(url, { mode: what.mode, timeoutMs, maxBytes: what.maxBytes, toFile: path, maxRedirects: 5, pace: MEDIA_PACE });
    const response = await download(what.timeoutMs).catch((error: unknown) => {
      const left = deadline - Date.now();
      if (error instanceof IncompleteBodyError && left >= MIN_RETRY_MS) return download(left);
      throw error;
    });
    return response.bytes;
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (error instanceof HttpStatusError) {
      if (error.status >= 500 || error.status === 429) throw error; // their server may recover: retried
      throw new JobFailedError(`${what.code}_unavailable`, `${what.noun.url} answered HTTP ${error.status}`);
    }
    if (error instanceof FetchError) throw failureOf(error, what);
    throw error;
  }
}
