/**
 * A failed video ends whole: the clip that failed it is `failed`, and the others are `rendered` or `cancelled`,
 * never left `queued` or `rendering` (in GET /v1/video/{id} and in its video.failed event alike).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRuntime } from '../../support/harness.ts';
import { apiOf, type E2eService, startE2eService, stopE2eService } from '../../support/service.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
beforeAll(async () => {
  ({ app, files, receiver } = await startE2eService('vidbot-failed-clips-', { seconds: 2 }));
}, 180_000);
afterAll(() => stopE2eService({ app, files, receiver }));
const api = apiOf(() => app);

describe('a failed video', () => {
  it('ends every clip: the failing one failed, the others rendered or cancelled', async () => {
    const clips = [
      { bot_uid: 'bot_ava', text: 'This one has a long text so that it is still rendering when the other clip fails, or at least it may be.' },
      { bot_uid: 'bot_leo', text: 'This background is missing.', background: `${files.base}/missing.mp4` },
      { bot_uid: 'bot_otto', text: 'A third clip.' },
    ];
    const created = await api('/v1/bot', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: receiver.url, clips }),
    });
    expect(created.status).toBe(202);
    const { video_id } = (await created.json()) as { video_id: string };
    let event: any;
    for (let i = 0; i < 300 && !event; i++) {
      event = receiver.delivered().find((d) => d.event?.data.video_id === video_id)?.event;
      if (!event) await new Promise((r) => setTimeout(r, 200));
    }
    expect(event?.type).toBe('video.failed');
    const video = (await (await api(`/v1/video/${video_id}`)).json()) as any;
    for (const statuses of [video.clips.map((c: any) => c.status), event.data.clips.map((c: any) => c.status)]) {
      expect(statuses[1]).toBe('failed');
      for (const status of [statuses[0], statuses[2]]) expect(['rendered', 'cancelled']).toContain(status);
    }
  });
});
