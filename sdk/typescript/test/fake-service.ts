/** A stand-in for the service in the SDK's unit tests: answers by a list of handlers, and records every request. */
export interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string;
  form?: FormData;
}

type Answer = (request: Request, seen: Seen) => Response | Promise<Response>;

export function fakeService(answers: Record<string, Answer | Answer[]>) {
  const seen: Seen[] = [];
  const queues = Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]));
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const type = request.headers.get('content-type') ?? '';
    const form = type.startsWith('multipart/form-data') ? await request.clone().formData() : undefined;
    const entry: Seen = { method: request.method, url: request.url, headers: request.headers, body: form ? '' : await request.text(), form };
    seen.push(entry);
    const key = `${request.method} ${url.pathname}`;
    const answer = queues[key];
    const next = Array.isArray(answer) ? (answer.length > 1 ? answer.shift() : answer[0]) : answer;
    if (!next) return json(404, { error: { code: 'not_found', message: `no route ${key}` } });
    return next(request, entry);
  };
  return { fetch, seen };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A video as GET /v1/video/{id} answers it, in the given state. */
export function videoIn(status: 'queued' | 'rendering' | 'completed' | 'failed', id = 'vid_1') {
  return {
    video_id: id,
    url: `http://svc/v1/video/${id}`,
    status,
    create_video: true,
    aspect_ratio: '16:9' as const,
    resolution: '720p' as const,
    captions: 'none' as const,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    completed_at: status === 'completed' ? '2026-01-01T00:00:10.000Z' : null,
    progress: { clips_total: 1, clips_rendered: status === 'completed' ? 1 : 0 },
    clips: [
      {
        index: 0,
        clip_name: 'clip_0',
        bot_uid: 'bot_ava',
        text: 'Hello',
        status: status === 'completed' ? 'rendered' : status === 'failed' ? 'failed' : status,
        duration_seconds: null,
        render_seconds: null,
        cached: false,
      },
    ],
    output:
      status === 'completed'
        ? {
            kind: 'video',
            content_type: 'video/mp4',
            duration_seconds: 1.2,
            size_bytes: 4,
            download_url: 'http://files/vid_1.mp4',
            download_url_expires_at: '2026-01-02T00:00:00.000Z',
            thumbnail_url: null,
            captions: null,
            download_endpoint: `http://svc/v1/video/${id}/download`,
          }
        : null,
    error: status === 'failed' ? { code: 'background_unavailable', message: 'clip 0: the background answered 404', clip_index: 0 } : null,
    webhook: { url: 'http://hook', state: 'waiting', attempts: [] },
  };
}
