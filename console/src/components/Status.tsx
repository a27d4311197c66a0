import { type Batch, isBatchSettled, type Video } from '../api.ts';

export function StatusBadge({ status }: { status: Video['status'] }) {
  const kind = status === 'completed' ? 'ok' : status === 'failed' ? 'bad' : 'busy';
  return <span class={`badge ${kind}`}>{status}</span>;
}

export function Progress({ video }: { video: Video }) {
  const { clips_total: total, clips_rendered: done } = video.progress;
  const label = `${done} of ${total} clips rendered`;
  return (
    <span class="progress-wrap">
      <progress max={total} value={done} aria-label={`Progress of ${video.video_id}`} />
      <span class="help">{label}</span>
    </span>
  );
}

/** A batch's status: green when every row completed, red when it settled otherwise, amber while it runs. */
export function BatchBadge({ batch }: { batch: Pick<Batch, 'status'> }) {
  const kind = batch.status === 'completed' ? 'ok' : isBatchSettled(batch) ? 'bad' : 'busy';
  return <span class={`badge ${kind}`}>{batch.status.replace(/_/g, ' ')}</span>;
}
