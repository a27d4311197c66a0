import type { Video } from '../api.ts';
import { deleteVideo, mediaLinksOf, pendingDelete, redeliver } from '../state.ts';
import { Progress, StatusBadge } from './Status.tsx';
import { WordsLink } from './WordsLink.tsx';

const seconds = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} s`);

/** One video: status and clips, the player, its actions, and its webhook attempts, side by side. */
export function VideoDetail({ video }: { video: Video }) {
  const links = mediaLinksOf(video);
  const link = links?.file ?? null;
  const finished = video.status === 'completed' || video.status === 'failed';
  return (
    <article class="card" aria-labelledby="video-title">
      <header class="detail-head">
        <h3 id="video-title">
          <code>{video.video_id}</code>
        </h3>
        <StatusBadge status={video.status} />
      </header>
      <Progress video={video} />
      {video.error && (
        <p class="notice error">
          <strong>{video.error.code}</strong>: {video.error.message}
        </p>
      )}

      {video.status === 'completed' && link && (
        <div class="player">
          {video.output?.kind === 'audio' ? (
            <audio controls src={link} aria-label="Voice player" />
          ) : (
            // A captions track from the object store is another origin: the browser loads it only for a media
            // element marked crossorigin, and then loads the video itself with CORS too (the bucket allows GET).
            // The track is off until the player's captions button turns it on: a video with burned captions would
            // otherwise show each caption twice (the record does not say whether they were burned).
            <video
              controls
              playsInline
              preload="metadata"
              src={link}
              poster={links?.poster ?? undefined}
              crossOrigin={links?.vtt ? 'anonymous' : undefined}
              aria-label="Video player"
            >
              {links?.vtt && <track kind="captions" src={links.vtt} label="Captions" />}
            </video>
          )}
          <p class="help">
            {video.output &&
              `${seconds(video.output.duration_seconds)} · ${(video.output.size_bytes / 1024 / 1024).toFixed(2)} MB · ${video.output.content_type}`}
            {video.aspect_ratio && video.output?.kind === 'video' && ` · ${video.aspect_ratio}${video.resolution ? `, ${video.resolution}` : ''}`}
          </p>
        </div>
      )}

      <div class="actions">
        {video.status === 'completed' && link && (
          <a class="button" href={link} download={`${video.video_id}.${video.output?.kind === 'audio' ? 'mp3' : 'mp4'}`}>
            Download
          </a>
        )}
        {video.status === 'completed' && links?.vtt && (
          <a class="button" href={links.vtt} download={`${video.video_id}.vtt`}>
            Captions (VTT)
          </a>
        )}
        {video.status === 'completed' && links?.srt && (
          <a class="button" href={links.srt} download={`${video.video_id}.srt`}>
            Captions (SRT)
          </a>
        )}
        {video.status === 'completed' && links?.words && <WordsLink videoId={video.video_id} url={links.words} />}
        <button type="button" onClick={() => redeliver(video.video_id)} disabled={!finished}>
          Redeliver webhook
        </button>
        {pendingDelete.value === video.video_id ? (
          <span class="confirm" role="group" aria-label="Confirm delete">
            Delete this video and its file for good?
            <button type="button" class="danger" onClick={() => deleteVideo(video.video_id)}>
              Yes, delete
            </button>
            <button type="button" onClick={() => (pendingDelete.value = null)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" class="danger" onClick={() => (pendingDelete.value = video.video_id)} disabled={!finished}>
            Delete video
          </button>
        )}
      </div>

      <h4>Clips</h4>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Name</th>
              <th scope="col">Bot</th>
              <th scope="col">Status</th>
              <th scope="col">Length</th>
              <th scope="col">Render</th>
            </tr>
          </thead>
          <tbody>
            {video.clips.map((clip) => (
              <tr>
                <td>{clip.index + 1}</td>
                <td>
                  {clip.clip_name}
                  {clip.clip_uid && (
                    <>
                      {' '}
                      <span class="badge">kept</span>
                    </>
                  )}
                </td>
                <td>{clip.bot_uid}</td>
                <td>{clip.status}</td>
                <td>{seconds(clip.duration_seconds)}</td>
                <td>{clip.cached ? 'cached' : seconds(clip.render_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h4>Webhook</h4>
      <p class="help">
        <span class="wrap-anywhere">{video.webhook.url}</span> · {video.webhook.state}
      </p>
      <div class="table-wrap">
        <table aria-label="Webhook attempts">
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">At</th>
              <th scope="col">Status</th>
              <th scope="col">Error</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {video.webhook.attempts.length === 0 && (
              <tr>
                <td colSpan={5} class="help">
                  No attempt yet.
                </td>
              </tr>
            )}
            {video.webhook.attempts.map((a) => (
              <tr>
                <td>{a.attempt}</td>
                <td>{new Date(a.at).toLocaleTimeString()}</td>
                <td>{a.status_code ?? '—'}</td>
                <td>{a.error ?? '—'}</td>
                <td>{a.duration_ms} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}
