/**
 * Sending the composer with recordings: what goes out is the form as it was when sent, and a recording is uploaded
 * once however often a refused request is sent again, until a request uses it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClipDraft } from '../../../console/src/request.ts';

/** The part of console/src/state.ts used here (typed by hand: the page's modules need the DOM's types, Node's tests have none). */
interface State {
  composer: { value: { clips: ClipDraft[] } & Record<string, unknown> };
  addClip: (clip: ClipDraft) => void;
  submit: () => Promise<void>;
}
const STATE_MODULE = '../../../console/src/state.ts';

interface Sent {
  method: string;
  url: string;
  body: unknown;
}

/** The API and the store, faked: uploads wait for `releaseUploads` when `holdUploads` is set; POST v1/bot answers `createStatus`. */
function fakeNetwork() {
  const sent: Sent[] = [];
  let uploads = 0;
  let release: () => void = () => {};
  const network = {
    sent,
    holdUploads: false,
    createStatus: 400,
    releaseUploads: () => release(),
  };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    sent.push({ method, url, body });
    if (method === 'POST' && url.endsWith('v1/uploads')) {
      if (network.holdUploads) await new Promise<void>((resolve) => (release = resolve));
      uploads += 1;
      return json(201, { upload_id: `upl_${uploads}`, upload_url: `http://store.test/upl_${uploads}`, upload_headers: {} });
    }
    if (method === 'PUT' && url.startsWith('http://store.test/')) return new Response(null, { status: 200 });
    if (method === 'POST' && url.endsWith('v1/bot'))
      return network.createStatus === 202
        ? json(202, { video_id: 'vid_1' })
        : json(400, { error: { code: 'invalid_request', message: 'Invalid request.', details: [{ path: 'clips[0].text', message: 'too long' }] } });
    return json(200, { videos: [], bots: [], next_cursor: null });
  });
  return network;
}

const recording = (name: string) => new File([new Uint8Array(64)], name, { type: 'audio/webm' });

async function loadState(): Promise<State> {
  vi.resetModules();
  const storage = new Map<string, string>([['vidbot.apiKey', 'vb_test']]);
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, v),
    removeItem: (k: string) => storage.delete(k),
  });
  vi.stubGlobal('location', new URL('http://console.test/'));
  return (await import(/* @vite-ignore */ STATE_MODULE)) as State;
}

function recordedClip(state: State, audio: File): ClipDraft {
  const clip = state.composer.value.clips[0]!;
  return { ...clip, botUid: 'bot_ava', speech: 'recording', audio, text: 'he was not an ill disposed young man' };
}

const creates = (sent: Sent[]) => sent.filter((s) => s.method === 'POST' && s.url.endsWith('v1/bot'));
const uploadRequests = (sent: Sent[]) => sent.filter((s) => s.method === 'POST' && s.url.endsWith('v1/uploads'));

describe('console submit with recordings', () => {
  let network: ReturnType<typeof fakeNetwork>;
  beforeEach(() => {
    network = fakeNetwork();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the form as it was when sent: a recording clip added while the uploads run is not in the request', async () => {
    const state = await loadState();
    state.composer.value = { ...state.composer.value, clips: [recordedClip(state, recording('first.webm'))] };
    network.holdUploads = true;
    const sending = state.submit();
    await vi.waitFor(() => expect(uploadRequests(network.sent)).toHaveLength(1));
    state.addClip({ ...recordedClip(state, recording('second.webm')), id: 99 });
    network.releaseUploads();
    await sending;
    const [create] = creates(network.sent);
    expect((create!.body as { clips: unknown[] }).clips).toEqual([
      { bot_uid: 'bot_ava', audio_upload: 'upl_1', text: 'he was not an ill disposed young man' },
    ]);
    expect(uploadRequests(network.sent)).toHaveLength(1);
  });

  it('uploads a recording once while refused requests are sent again, and anew once a request used it', async () => {
    const state = await loadState();
    const audio = recording('voice.webm');
    state.composer.value = { ...state.composer.value, clips: [recordedClip(state, audio)] };
    await state.submit();
    await state.submit();
    expect(uploadRequests(network.sent)).toHaveLength(1);
    expect(network.sent.filter((s) => s.method === 'PUT')).toHaveLength(1);
    expect(creates(network.sent).map((c) => (c.body as { clips: { audio_upload: string }[] }).clips[0]!.audio_upload)).toEqual(['upl_1', 'upl_1']);

    network.createStatus = 202;
    await state.submit();
    state.composer.value = { ...state.composer.value, clips: [recordedClip(state, audio)] };
    await state.submit();
    expect(uploadRequests(network.sent)).toHaveLength(2);
    expect(creates(network.sent).map((c) => (c.body as { clips: { audio_upload: string }[] }).clips[0]!.audio_upload)).toEqual([
      'upl_1',
      'upl_1',
      'upl_1',
      'upl_2',
    ]);
  });
});
