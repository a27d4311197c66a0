import { account, keptClips, reuseClip } from '../state.ts';

const STATUSES = ['queued', 'rendering', 'assembling', 'completed', 'failed'];

/** The account's counts and the clips it kept for reuse. */
export function AccountPanel() {
  const acct = account.value;
  return (
    <section aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      {acct && (
        <div class="card">
          <dl class="facts">
            <dt>Name</dt>
            <dd>{acct.name}</dd>
            <dt>Account</dt>
            <dd>
              <code>{acct.account_id}</code>
            </dd>
            <dt>Key</dt>
            <dd>
              <code>{acct.key_id}</code>
            </dd>
            <dt>Created</dt>
            <dd>{new Date(acct.created_at).toLocaleString()}</dd>
          </dl>
          <h3>Videos</h3>
          <ul class="counts" aria-label="Videos by status">
            <li>
              <span class="count-num">{acct.videos.total}</span> total
            </li>
            {STATUSES.map((s) => (
              <li>
                <span class="count-num">{acct.videos.by_status[s] ?? 0}</span> {s}
              </li>
            ))}
          </ul>
          {!acct.videos.complete && <p class="help">Counted from your newest videos only.</p>}
        </div>
      )}
      <h3>Kept clips</h3>
      {keptClips.value.length === 0 && <p class="help">None yet: tick “Keep for reuse” on a clip.</p>}
      {keptClips.value.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Bot</th>
                <th scope="col">Kind</th>
                <th scope="col">Length</th>
                <th scope="col">
                  <span class="sr-only">Use</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keptClips.value.map((clip) => (
                <tr>
                  <td>
                    {clip.clip_name} <code class="help">{clip.clip_uid}</code>
                  </td>
                  <td>{clip.bot_uid}</td>
                  <td>{clip.kind}</td>
                  <td>{clip.duration_seconds.toFixed(1)} s</td>
                  <td>
                    <button type="button" onClick={() => reuseClip(clip)} aria-label={`Reuse ${clip.clip_name} in a new video`}>
                      Reuse
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
