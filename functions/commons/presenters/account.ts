/** How callers see their account (GET /v1/account). */
import type { Account } from '#domain/ports';

export const toPublicAccount = (account: Account, keyId: string, videos: { counts: Record<string, number>; complete: boolean }) => ({
  account_id: account.tenantId,
  name: account.name,
  created_at: account.createdAt,
  key_id: keyId,
  /** A test account: its keys make test videos; `live_account_id` is the account it tests for. */
  test: account.test === true,
  ...(account.liveTenantId && { live_account_id: account.liveTenantId }),
  // complete: false means only the newest videos up to the counting bound were counted.
  videos: { total: Object.values(videos.counts).reduce((a, b) => a + b, 0), by_status: videos.counts, complete: videos.complete },
});
