import { WaitTimeoutError } from './errors.ts';

export interface WaitOptions<T> {
  /** Give up (WaitTimeoutError) after this long. Default 15 minutes. */
  timeoutMs?: number;
  /** The first pause between two looks; each next one is 1.5 times longer, up to maxIntervalMs. Default 1 s. */
  intervalMs?: number;
  /** Default 10 s. */
  maxIntervalMs?: number;
  /** Called with every state read, e.g. to draw progress. */
  onProgress?: (state: T) => void;
  signal?: AbortSignal;
}

/** A pause that an abort ends early (rejecting with the signal's reason). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Pauses until `ms` pass (false) or the event comes (true), whichever is first; the other is let go. */
async function pauseOrEvent(ms: number, event: Promise<true>, signal?: AbortSignal): Promise<boolean> {
  const stop = new AbortController();
  const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const paused = pause(ms, both).then(
    () => false,
    (error) => {
      if (signal?.aborted) throw error;
      return false;
    },
  );
  const came = await Promise.race([paused, event]);
  stop.abort();
  return came;
}

/**
 * Reads `look` until `settled` says so, backing off between looks, and never past the deadline (the last pause is
 * cut to it; then one last look). `early`, when given, ends the wait as soon as it resolves (a webhook's event).
 */
export async function pollUntil<T>(
  id: string,
  look: () => Promise<T>,
  settled: (state: T) => boolean,
  statusOf: (state: T) => string,
  options: WaitOptions<T> & { early?: Promise<unknown> },
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  const maxInterval = options.maxIntervalMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  let interval = options.intervalMs ?? 1000;
  // The event ends one pause (the next look sees what it announced); after that the pauses are the plain backoff.
  let eventUsed = false;
  // An event that is not this one's (rejected) never ends a pause.
  const event = options.early?.then(
    () => true as const,
    () => new Promise<never>(() => undefined),
  );
  for (;;) {
    const state = await look();
    options.onProgress?.(state);
    if (settled(state)) return state;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(id, statusOf(state), timeoutMs);
    const wait = Math.min(interval, left);
    if (event && !eventUsed) eventUsed = await pauseOrEvent(wait, event, options.signal);
    else await pause(wait, options.signal);
    interval = Math.min(interval * 1.5, maxInterval);
  }
}
