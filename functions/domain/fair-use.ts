import { TooManyVideosInProgressError } from './errors.ts';
import { limits } from './limits.ts';
import type { Account, AccountStore, VideoRepository } from './ports.ts';
import { isTestAccount } from './test-mode.ts';

const maxVideosInProgress = (account: Pick<Account, 'maxVideosInProgress'> | undefined): number =>
  account?.maxVideosInProgress ?? limits.defaultMaxVideosInProgress;

/** A per-account limit as an operator types it: a whole number from 0 (no new videos) to the ceiling. */
export function parseVideosInProgressLimit(value: string | number | undefined): number {
  const limit = typeof value === 'number' ? value : value?.trim() ? Number(value) : NaN;
  if (!Number.isInteger(limit) || limit < 0 || limit > limits.maxVideosInProgressCeiling)
    throw new Error(`the limit of videos in progress must be a whole number from 0 to ${limits.maxVideosInProgressCeiling}, got "${value}"`);
  return limit;
}

export interface FairUseDeps {
  accounts: Pick<AccountStore, 'get'>;
  videos: Pick<VideoRepository, 'countInProgress'>;
  now: () => Date;
}

/**
 * The account whose room a test account's work shares: its live account. Undefined for a live account, which
 * counts its own work only, so that test work never takes room from live work.
 */
export async function liveAccountOf(tenantId: string, accounts: FairUseDeps['accounts']): Promise<string | undefined> {
  const own = await accounts.get(tenantId);
  return isTestAccount(own) ? own?.liveTenantId : undefined;
}

/**
 * How much of a per-account limit (bots preparing, pending uploads) an account's work takes now: a live account's
 * own; a test account's own and its live account's together, so that a test key never doubles a limit.
 */
export async function sharedUse(tenantId: string, accounts: FairUseDeps['accounts'], use: (tenantId: string) => Promise<number>): Promise<number> {
  const liveTenantId = await liveAccountOf(tenantId, accounts);
  const [own, live] = await Promise.all([use(tenantId), liveTenantId ? use(liveTenantId) : 0]);
  return own + live;
}

/** The limit an account's videos are held to: a test account's is its live account's (videosInProgressRoom). */
export async function videosInProgressLimit(account: Account | undefined, accounts: FairUseDeps['accounts']): Promise<number> {
  const liveTenantId = isTestAccount(account) ? account?.liveTenantId : undefined;
  return maxVideosInProgress(liveTenantId ? await accounts.get(liveTenantId) : account);
}

/**
 * The limit an account's new videos are held to, and how many videos count against it now. A test account has no
 * limit of its own: it shares its live account's, and its videos start only in the room the live account's leave
 * (live and test videos in progress together under the live limit), so test keys never double an account's
 * capacity. A live account counts its own videos only: test videos never take room from live ones.
 *
 * Only videos created within the last deadline are counted: the sweeper fails any video still unfinished past its
 * deadline, so older ones are about to end and must not block the account (and the count stays a bounded read of
 * the account's index).
 */
export async function videosInProgressRoom(tenantId: string, deps: FairUseDeps, account?: Account): Promise<{ limit: number; inProgress: number }> {
  const own = account ?? (await deps.accounts.get(tenantId));
  const since = new Date(deps.now().getTime() - limits.videoDeadlineSeconds * 1000).toISOString();
  const liveTenantId = isTestAccount(own) ? own?.liveTenantId : undefined;
  if (!liveTenantId) {
    const limit = maxVideosInProgress(own);
    return { limit, inProgress: limit === 0 ? 0 : await deps.videos.countInProgress(tenantId, since, limit) };
  }
  const limit = await videosInProgressLimit(own, deps.accounts);
  const live = limit === 0 ? 0 : await deps.videos.countInProgress(liveTenantId, since, limit);
  const test = live >= limit ? 0 : await deps.videos.countInProgress(tenantId, since, limit - live);
  return { limit, inProgress: live + test };
}

/**
 * Refuses a new video while the account has its limit of videos in progress (videosInProgressRoom).
 *
 * Not exact under concurrency: the count reads an eventually consistent index and is not taken in the same
 * write as the new video, so creates of one account in flight at the same moment (bounded by its request rate,
 * the usage plan's burst) can each see room and pass together, overshooting by at most their number, and so can
 * creates closer together than the index lags behind the table (on DynamoDB usually well under a second).
 * Creates further apart are held to the limit. An exact count would need a counter that every function ending a
 * video decrements in the same write; the overshoot is small and short-lived, so this does without.
 */
export async function ensureRoomForAnotherVideo(tenantId: string, deps: FairUseDeps, account?: Account): Promise<void> {
  const { limit, inProgress } = await videosInProgressRoom(tenantId, deps, account);
  if (inProgress >= limit) throw new TooManyVideosInProgressError(limit, limits.videosInProgressRetryAfterSeconds);
}
