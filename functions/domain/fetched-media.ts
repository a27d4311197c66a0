/**
 * The fetch stage's object keys, apart from bucket-layout.ts because they hash (node:crypto), and the console,
 * which runs in a browser, reads that layout.
 */
import { createHash } from 'node:crypto';
import { BUCKET_PREFIXES } from './bucket-layout.ts';

/**
 * Where the fetch stage stores what a video's URL (a background, an image, a recording, the music) answered, for
 * the render or assembly to read: one object per URL, use and video, so a logo shared by ten clips is fetched once.
 * `use` is the download rules' code (`background`, `logo`, `audio`, `music`, …): a URL named both as a background
 * (200 MiB) and as a logo (10 MiB) is fetched under each one's limits, never read as a logo from the background's.
 */
export const fetchedMediaKey = (tenantId: string, videoId: string, use: string, url: string) =>
  `${BUCKET_PREFIXES.fetched}${tenantId}/${videoId}/${use}-${createHash('sha256').update(url).digest('hex')}`;
