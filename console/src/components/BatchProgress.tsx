import { type BatchRowVideo, isBatchSettled } from '../api.ts';
import { batchRows, cancelOpenBatch, moreRowsCursor, openedBatch, rowLinksOf, showMoreRows } from '../batches.ts';
import { selectVideo, tab } from '../state.ts';
import { BatchBadge } from './Status.tsx';

const FIRST_WORDS_CHARS = 90;
const firstWords = (text: string) => (text.length > FIRST_WORDS_CHARS ? `${text.slice(0, FIRST_WORDS_CHARS).trimEnd()}…` : text);

const ROW_BADGE: Record<string, string> = { completed: 'ok', failed: 'bad', cancelled: 'bad', deleted: 'bad' };

/** One row: its video playable once completed (or its state), which row it is, and its first words. */
function RowCard({ row }: { row: BatchRowVideo }) {
  const links = row.status === 'completed' ? rowLinksOf(row) : null;
  const label = `Row ${row.row + 1}${row.clip_name ? `: ${row.clip_name}` : ''}`;
  return (
    <li class="card row-card">
      {links && row.kind === 'audio' ? (
        <audio controls preload="none" src={links.file} aria-label={`Voice of row ${row.row + 1}`} />
      ) : links ? (
        // Only the poster loads until it is played: a batch of a hundred stays light.
        <video controls playsInline preload="none" src={links.file} poster={links.poster ?? undefined} aria-label={`Video of row ${row.row + 1}`} />
      ) : (
        <div class="no-preview">{row.error ? 'No video' : row.status === 'cancelled' ? 'Cancelled' : 'Not made yet'}</div>
      )}
      <p class="row-top">
        <strong class="wrap-anywhere">{label}</strong>
        <span class={`badge ${ROW_BADGE[row.status] ?? 'busy'}`}>{row.status}</span>
      </p>
      {row.text && <p class="help">{firstWords(row.text)}</p>}
      {row.error && <p class="field-error">{row.error}</p>}
      {row.video_id && (
        <button
          type="button"
          class="link"
          aria-label={`Open ${row.video_id} under Videos`}
          onClick={() => {
            tab.value = 'videos';
            selectVideo(row.video_id);
          }}
        >
          Open under Videos
        </button>
      )}
    </li>
  );
}

/** A batch: its counts, its webhook, and each row's video as it is made. */
export function BatchProgress() {
  const batch = openedBatch.value;
  if (!batch) return <p class="help">Loading the batch…</p>;
  const settled = batch.counts.completed + batch.counts.failed + batch.counts.cancelled;
  const counts: [string, number][] = [
    ['completed', batch.counts.completed],
    ['in progress', batch.counts.in_progress],
    ['waiting', batch.counts.pending],
    ['failed', batch.counts.failed],
    ['cancelled', batch.counts.cancelled],
  ];
  return (
    <article class="card" aria-labelledby="batch-title">
      <header class="detail-head">
        <h3 id="batch-title">{batch.template_name}</h3>
        <BatchBadge batch={batch} />
      </header>
      <p class="help">
        <code class="wrap-anywhere">{batch.batch_id}</code> · {new Date(batch.created_at).toLocaleString()}
      </p>
      <span class="progress-wrap">
        <progress max={batch.rows} value={settled} aria-label="Rows settled" />
        <span class="help">
          {settled} of {batch.rows} rows settled
        </span>
      </span>
      <ul class="counts" aria-label="Rows by state">
        {counts.map(([name, count]) => (
          <li>
            <span class="count-num">{count}</span> {name}
          </li>
        ))}
      </ul>
      <p class="help">
        <code>batch.completed</code> to <span class="wrap-anywhere">{batch.webhook.url}</span>: {batch.webhook.state}
        {batch.webhook.attempts.length > 0 && `, ${batch.webhook.attempts.length} attempt(s)`}
      </p>
      {!isBatchSettled(batch) && (
        <div class="actions">
          <button type="button" class="danger" onClick={() => cancelOpenBatch()} disabled={batch.cancel_requested}>
            {batch.cancel_requested ? 'Cancelling…' : 'Cancel the rows not started'}
          </button>
        </div>
      )}
      <h4>Rows</h4>
      <ul class="gallery rows">
        {batchRows.value.map((row) => (
          <RowCard row={row} />
        ))}
      </ul>
      {moreRowsCursor.value && (
        <button type="button" onClick={() => showMoreRows()}>
          Show more rows
        </button>
      )}
    </article>
  );
}
