import { createHash } from 'node:crypto';
import { TEMPORARY_EXPIRY_DAYS } from './bucket-layout.ts';
import type { RenderSpec } from './render-spec.ts';

/**
 * A rendered clip's content address: the hash of its tenant, the renderer's version and its render spec
 * (render-spec.ts), which holds everything that changes its pixels and sound. An identical clip of the same tenant
 * is found under this address and never rendered twice. The tenant is part of it so that the cache is per tenant:
 * a hit (`cached`, no render time) must not tell one tenant what another has rendered. A bot of an account names
 * its look by its prefix in the bucket, `looks/<tenant>/<uid>/<version>` (see account-bot.ts toBot): the version
 * changes on every replace, so a replaced bot's clips are rendered anew. The background and the logo are
 * identified by their URLs: an image that changes behind the same URL is not noticed (documented in docs/api.md).
 *
 * The spec is hashed as renderSpecOf writes it (its fields in their order, stored maps sorted): the pinned keys in
 * test/unit/domain/render-spec.test.ts hold today's addresses, so a change to them is a decision.
 */
export const renderCacheKey = (tenantId: string, rendererVersion: string, spec: RenderSpec): string =>
  createHash('sha256')
    .update(JSON.stringify({ tenantId, rendererVersion, ...spec }))
    .digest('hex');

/**
 * A temporary render older than this is not reused: it could expire before the video using it is assembled
 * (S3 expires objects at the first midnight UTC after the age is reached, and reading one does not reset its
 * age). Rendering it again rewrites the object, which starts its age afresh. One day of margin is far more
 * than a video's deadline.
 * @internal Exported for its tests.
 */
export const REUSABLE_RENDER_MAX_AGE_MS = (TEMPORARY_EXPIRY_DAYS - 1) * 24 * 3600 * 1000;

/** Whether a temporary render last written at `lastModified` may still be reused at `now`. */
export const isReusableRender = (lastModified: Date, now: Date) => now.getTime() - lastModified.getTime() < REUSABLE_RENDER_MAX_AGE_MS;
