/** Speech engines: espeak-ng for real (short texts), Polly against aws-sdk-client-mock, and the choice of voice and engine. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PollyClient, SynthesizeSpeechCommand } from '@aws-sdk/client-polly';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { cuesFromWords } from '#domain/captions';
import { speechScriptOf } from '#domain/lexicon';
import { type SpeechVoice, voiceToSpeak } from '#domain/voices';
import { readWav } from '#functions/media/wav.ts';
import { loudnessPerFrame, mouthFrames, mouthLevelsFromLoudness, visemesOfPolly } from '#functions/render/engine/lipsync.ts';
import { speakSsml } from '#functions/render/speech/espeak.ts';
import { EspeakSpeechEngine, speechEngineFor } from '#functions/render/speech/index.ts';
import { PollySpeechEngine } from '#functions/render/speech/polly.ts';
import { pearson } from '../../support/mouth-measure.ts';

const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
/** Ava's voice where Polly is off: her espeak-ng voice, rate and pitch. */
const avaEspeak: SpeechVoice = voiceToSpeak(ava.voice, undefined, { polly: false });
const workDir = mkdtempSync(join(tmpdir(), 'vidbot-speech-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** What the SDK returns as AudioStream, reduced to the two methods the adapter uses. */
const stream = (bytes: Buffer) => ({
  transformToByteArray: async () => new Uint8Array(bytes),
  transformToString: async () => bytes.toString('utf8'),
});

describe('espeak-ng', () => {
  it('speaks the text into a 16-bit WAV whose duration it reports', async () => {
    const result = await new EspeakSpeechEngine().synthesize(speechScriptOf('Good morning, world.'), avaEspeak, workDir);
    const pcm = readWav(result.wavPath);
    expect(result.sampleRate).toBe(pcm.sampleRate);
    expect(result.durationSeconds).toBeGreaterThan(0.5);
    expect(result.durationSeconds).toBeCloseTo(pcm.samples.length / pcm.sampleRate, 6);
    expect(result.visemes).toBeUndefined();
  });

  it('speaks on its own thread: texts at once come back each as it sounds alone, and the thread speaks on after a run that wrote nothing', async () => {
    const engine = new EspeakSpeechEngine();
    const dir = (name: string) => mkdtempSync(join(workDir, `${name}-`));
    const [first, second] = await Promise.all([
      engine.synthesize(speechScriptOf('The first of two texts.'), avaEspeak, dir('a')),
      engine.synthesize(speechScriptOf('And the second one, which is quite a bit longer than the first.'), avaEspeak, dir('b')),
    ]);
    const alone = await engine.synthesize(speechScriptOf('The first of two texts.'), avaEspeak, dir('c'));
    expect(readFileSync(first.wavPath).equals(readFileSync(alone.wavPath))).toBe(true);
    expect(second.durationSeconds).toBeGreaterThan(first.durationSeconds + 1);
    // A run that fails (a voice espeak-ng does not have) fails alone; the thread speaks on.
    await expect(speakSsml('<speak>Nobody.</speak>', { voice: 'xx/none' })).rejects.toThrow(/no voice "xx\/none"/);
    expect((await engine.synthesize(speechScriptOf('Still speaking.'), avaEspeak, dir('d'))).durationSeconds).toBeGreaterThan(0.5);
  });

  it('stops a run that goes on past its time limit, failing it and what the thread held; the next run starts a new thread', async () => {
    const long = ` ${'A sentence that takes its time to be spoken. '.repeat(40)}`;
    const slow = speakSsml(`<speak>${long}</speak>`, { voice: 'gmw/en-US' }, 20);
    const alongside = speakSsml(`<speak>${long}</speak>`, { voice: 'gmw/en' });
    await expect(slow).rejects.toThrow(/the espeak-ng thread stopped/);
    await expect(alongside).rejects.toThrow(/the espeak-ng thread stopped/);
    const after = await speakSsml('<speak>After.</speak>', { voice: 'gmw/en-US' });
    expect(after.samples.length).toBeGreaterThan(1000);
  });

  it('speaks the same text and voice the same, byte for byte, a second later (the breath noise of f3 voices is seeded)', async () => {
    const engine = new EspeakSpeechEngine();
    const dir = (name: string) => mkdtempSync(join(workDir, `${name}-`));
    const before = await engine.synthesize(speechScriptOf('Breath in the voice.'), avaEspeak, dir('before'));
    // espeak-ng seeds its noise from time(): past a whole second, a running clock would give another seed.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = await engine.synthesize(speechScriptOf('Breath in the voice.'), avaEspeak, dir('after'));
    expect(readFileSync(after.wavPath).equals(readFileSync(before.wavPath))).toBe(true);
  });

  it('speaks text that looks like options or carries control characters, as text', async () => {
    const result = await new EspeakSpeechEngine().synthesize(speechScriptOf('-v xx --help\u0007 minus five'), avaEspeak, workDir);
    expect(result.durationSeconds).toBeGreaterThan(0.5);
  });

  it('captions show phoneme brackets as written: "[[" broken up for espeak-ng is not shown as "[ ["', async () => {
    for (const text of ["Say [[h@l'oU]] now.", 'a [[b', 'x [[[ y', 'see (this) and [that] ok']) {
      const script = speechScriptOf(text);
      const result = await new EspeakSpeechEngine().synthesize(script, avaEspeak, workDir);
      const cues = cuesFromWords(script.shown, result.words!);
      expect(cues.map((c) => c.lines.join(' ')).join(' ')).toBe(text);
    }
  });

  it('times every word of a text with lone surrogates (JSON lets "\\ud800" through): none is lost, none shifted', async () => {
    const written = Array.from({ length: 20 }, (_, i) => `w${i}`);
    const script = speechScriptOf(written.map((w) => `${w}\ud800`).join(' '));
    const result = await new EspeakSpeechEngine().synthesize(script, avaEspeak, workDir);
    expect(result.words!.map((w) => script.shown.slice(w.start, w.end).replace('\ud800', ''))).toEqual(written);
    for (const [i, word] of result.words!.entries()) if (i) expect(word.startSeconds).toBeGreaterThan(result.words![i - 1]!.startSeconds);
  });

  it('drives the mouth from the loudness: Pearson r(mouth level, RMS) ≥ 0.6 on a real utterance', async () => {
    const result = await new EspeakSpeechEngine().synthesize(
      speechScriptOf('The quick brown fox jumps over the lazy dog, twice!'),
      avaEspeak,
      workDir,
    );
    const pcm = readWav(result.wavPath);
    const loudness = loudnessPerFrame(pcm.samples, pcm.sampleRate, 30);
    const levels = mouthLevelsFromLoudness(loudness);
    const r = pearson(levels, loudness);
    console.log(`lip sync (engine levels vs espeak RMS per frame): Pearson r = ${r.toFixed(3)} over ${levels.length} frames`);
    expect(r).toBeGreaterThanOrEqual(0.6);
    expect(new Set(levels).size).toBeGreaterThanOrEqual(4);
  });
});

describe('Amazon Polly', () => {
  const polly = mockClient(PollyClient);
  beforeEach(() => polly.reset());

  it('asks for neural 16 kHz PCM and viseme and word marks, and returns them', async () => {
    const pcm = Buffer.alloc(16000 * 2); // one second of silence
    for (let i = 0; i < 16000; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2);
    const marks = [
      '{"time":0,"type":"viseme","value":"sil"}',
      '{"time":120,"type":"viseme","value":"a"}',
      '{"time":400,"type":"viseme","value":"p"}',
    ].join('\n');
    polly.on(SynthesizeSpeechCommand, { OutputFormat: 'pcm' }).resolves({ AudioStream: stream(pcm) as never });
    polly.on(SynthesizeSpeechCommand, { OutputFormat: 'json' }).resolves({ AudioStream: stream(Buffer.from(marks)) as never });

    const result = await new PollySpeechEngine(new PollyClient({ region: 'us-east-1' })).synthesize(
      speechScriptOf('Hello'),
      voiceToSpeak(ava.voice, undefined, { polly: true }),
      workDir,
    );

    const calls = polly.commandCalls(SynthesizeSpeechCommand).map((c) => c.args[0].input);
    expect(calls).toHaveLength(2);
    expect(calls).toContainEqual(
      expect.objectContaining({ Engine: 'neural', OutputFormat: 'pcm', SampleRate: '16000', VoiceId: 'Joanna', Text: 'Hello' }),
    );
    expect(calls).toContainEqual(
      expect.objectContaining({ Engine: 'neural', OutputFormat: 'json', SpeechMarkTypes: ['viseme', 'word'], VoiceId: 'Joanna' }),
    );
    expect(result.sampleRate).toBe(16000);
    expect(result.durationSeconds).toBeCloseTo(1, 6);
    expect(result.visemes).toEqual([
      { timeMs: 0, value: 'sil' },
      { timeMs: 120, value: 'a' },
      { timeMs: 400, value: 'p' },
    ]);
    expect(readWav(result.wavPath).samples.length).toBe(16000);

    // The visemes shape the mouth: wide open on "a", closed on "p" and silence.
    const mouths = mouthFrames(visemesOfPolly(result.visemes!, 1), loudnessPerFrame(readWav(result.wavPath).samples, 16000, 30), 30, {
      mouthLevels: 5,
    });
    expect(mouths[1]!.frame).toBe('m0');
    expect(Math.max(...mouths.slice(4, 11).map((m) => Number(m.frame.slice(1))))).toBeGreaterThanOrEqual(3);
    expect(mouths[14]!.frame).toBe('m0');
    expect(result.words).toEqual([]);
  });

  it("maps word marks' UTF-8 byte offsets back into the clip's own text, whitespace and control characters included", async () => {
    const text = '  Déjà vu,\n\n\tnaïve café\u0007— 東京!  ';
    const spoken = 'Déjà vu, naïve café — 東京!'; // what Polly is sent
    const said = ['Déjà', 'vu', 'naïve', 'café', '東京'];
    // Polly's marks: byte offsets into the UTF-8 of the text it was sent.
    let from = 0;
    const wordMarks = said.map((word, i) => {
      const at = spoken.indexOf(word, from);
      from = at + word.length;
      const start = Buffer.byteLength(spoken.slice(0, at));
      return JSON.stringify({ time: 100 + i * 300, type: 'word', start, end: start + Buffer.byteLength(word), value: word });
    });
    const pcm = Buffer.alloc(16000 * 2 * 2);
    polly.on(SynthesizeSpeechCommand, { OutputFormat: 'pcm' }).resolves({ AudioStream: stream(pcm) as never });
    polly
      .on(SynthesizeSpeechCommand, { OutputFormat: 'json' })
      .resolves({ AudioStream: stream(Buffer.from(['{"time":0,"type":"viseme","value":"sil"}', ...wordMarks].join('\n'))) as never });

    const result = await new PollySpeechEngine(new PollyClient({ region: 'us-east-1' })).synthesize(
      speechScriptOf(text),
      voiceToSpeak(ava.voice, undefined, { polly: true }),
      workDir,
    );

    expect(polly.commandCalls(SynthesizeSpeechCommand)[0]!.args[0].input.Text).toBe(spoken);
    expect(result.words.map((w) => text.slice(w.start, w.end))).toEqual(said);
    // Each word lasts until the next starts; the last, until the audio ends.
    expect(result.words.map((w) => [w.startSeconds, w.endSeconds])).toEqual([
      [0.1, 0.4],
      [0.4, 0.7],
      [0.7, 1],
      [1, 1.3],
      [1.3, 2],
    ]);
  });

  it("passes the clip voice's Polly id, with the neural engine where the voice has it and the standard one where not", async () => {
    polly.on(SynthesizeSpeechCommand, { OutputFormat: 'pcm' }).resolves({ AudioStream: stream(Buffer.alloc(3200)) as never });
    polly
      .on(SynthesizeSpeechCommand, { OutputFormat: 'json' })
      .resolves({ AudioStream: stream(Buffer.from('{"time":0,"type":"viseme","value":"sil"}')) as never });
    const engine = new PollySpeechEngine(new PollyClient({ region: 'us-east-1' }));
    await engine.synthesize(speechScriptOf('Hola a todos.'), voiceToSpeak(ava.voice, 'polly:Lucia', { polly: true }), workDir);
    await engine.synthesize(speechScriptOf('Привет.'), voiceToSpeak(ava.voice, 'polly:Tatyana', { polly: true }), workDir);
    const calls = polly.commandCalls(SynthesizeSpeechCommand).map((c) => c.args[0].input);
    expect(calls.filter((c) => c.VoiceId === 'Lucia').map((c) => c.Engine)).toEqual(['neural', 'neural']);
    expect(calls.filter((c) => c.VoiceId === 'Tatyana').map((c) => c.Engine)).toEqual(['standard', 'standard']);
    await expect(engine.synthesize(speechScriptOf('Hi.'), { id: 'espeak:en-us+f3' }, workDir)).rejects.toThrow(/not a Polly voice/);
  });
});

describe('Amazon Polly with markup and a lexicon', () => {
  const polly = mockClient(PollyClient);
  beforeEach(() => polly.reset());

  /** Answers every request with two seconds of silence and the given word marks, each computed from the request's text. */
  const answer = (marks: (ssml: string) => string[]) => {
    polly.on(SynthesizeSpeechCommand, { OutputFormat: 'pcm' }).resolves({ AudioStream: stream(Buffer.alloc(16000 * 2 * 2)) as never });
    polly
      .on(SynthesizeSpeechCommand, { OutputFormat: 'json' })
      .callsFake((input: { Text: string }) => ({ AudioStream: stream(Buffer.from(marks(input.Text).join('\n'))) }));
  };
  /** Polly's word mark for the n-th occurrence of `word` in the request's text (byte offsets, as Polly gives them). */
  const mark = (sent: string, word: string, time: number, occurrence = 0) => {
    let at = -1;
    for (let i = 0; i <= occurrence; i++) at = sent.indexOf(word, at + 1);
    const start = Buffer.byteLength(sent.slice(0, at));
    return JSON.stringify({ time, type: 'word', start, end: start + Buffer.byteLength(word), value: word });
  };
  const sentTexts = () => polly.commandCalls(SynthesizeSpeechCommand).map((c) => c.args[0].input);

  it("sends SSML with the caller's text escaped: text that spells markup out cannot become markup", async () => {
    answer(() => []);
    const text =
      'Hi &lt;/speak&gt;&lt;break time="100s"/&gt; & "quotes" <break time="250ms"/>then <emphasis level="strong">loud</emphasis> <say-as interpret-as="characters">API</say-as>.';
    await new PollySpeechEngine(new PollyClient({ region: 'us-east-1' })).synthesize(
      speechScriptOf(text),
      voiceToSpeak(ava.voice, undefined, { polly: true }),
      workDir,
    );
    const calls = sentTexts();
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.TextType).toBe('ssml');
      expect(call.Text).toBe(
        '<speak>Hi &lt;/speak&gt;&lt;break time=&quot;100s&quot;/&gt; &amp; &quot;quotes&quot; <break time="250ms"/>then ' +
          '<prosody volume="+6dB" rate="90%">loud</prosody> <say-as interpret-as="characters">API</say-as>.</speak>',
      );
    }
    // Well formed: every tag opened is closed, in order, and no "<" or "&" is left bare.
    const stack: string[] = [];
    for (const [, close, name, self] of calls[0]!.Text!.matchAll(/<(\/?)([a-z-]+)[^>]*?(\/?)>/g)) {
      if (self) continue;
      if (close) expect(stack.pop()).toBe(name);
      else stack.push(name!);
    }
    expect(stack).toEqual([]);
    expect(calls[0]!.Text!.replace(/<[^<>]+>/g, '').replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toMatch(/[<>&]/);
  });

  it('says emphasis with <emphasis> on a standard voice, and plain text stays plain text', async () => {
    answer(() => []);
    const engine = new PollySpeechEngine(new PollyClient({ region: 'us-east-1' }));
    await engine.synthesize(speechScriptOf('Привет <emphasis>друг</emphasis>.'), voiceToSpeak(ava.voice, 'polly:Tatyana', { polly: true }), workDir);
    expect(sentTexts()[0]).toMatchObject({ TextType: 'ssml', Text: '<speak>Привет <emphasis level="moderate">друг</emphasis>.</speak>' });
    polly.resetHistory();
    await engine.synthesize(speechScriptOf('3 < 5 & vidbot'), voiceToSpeak(ava.voice, undefined, { polly: true }), workDir);
    expect(sentTexts()[0]).toMatchObject({ TextType: 'text', Text: '3 < 5 & vidbot' });
  });

  it('maps word marks in the SSML back to the shown text; a lexicon replacement is one word, shown as written', async () => {
    answer((sent) => [mark(sent, 'Meet', 0), mark(sent, 'vid', 300), mark(sent, 'bot', 500), mark(sent, 'API', 1200), mark(sent, 'now', 1600)]);
    const text = 'Meet <emphasis>vidbot</emphasis><break time="500ms"/> <say-as interpret-as="characters">API</say-as> &amp; now';
    const script = speechScriptOf(text, [{ word: 'vidbot', say: 'vid bot' }]);
    const result = await new PollySpeechEngine(new PollyClient({ region: 'us-east-1' })).synthesize(
      script,
      voiceToSpeak(ava.voice, undefined, { polly: true }),
      workDir,
    );
    expect(sentTexts()[0]!.Text).toBe(
      '<speak>Meet <prosody volume="+3dB" rate="95%">vid bot</prosody><break time="500ms"/> <say-as interpret-as="characters">API</say-as> &amp; now</speak>',
    );
    expect(script.shown).toBe('Meet vidbot API & now');
    expect(result.words.map((w) => [script.shown.slice(w.start, w.end), w.startSeconds, w.endSeconds])).toEqual([
      ['Meet', 0, 0.3],
      ['vidbot', 0.3, 1.2],
      ['API', 1.2, 1.6],
      ['now', 1.6, 2],
    ]);
    expect(cuesFromWords(script.shown, result.words).flatMap((c) => c.lines)).toEqual(['Meet vidbot API & now']);
  });
});

describe('the voice a clip is spoken with, and its engine', () => {
  it("speaks a built-in bot's neural Polly voice where the deployment uses Polly, its espeak-ng voice elsewhere", () => {
    expect(voiceToSpeak(ava.voice, undefined, { polly: true })).toEqual({ id: 'polly:Joanna' });
    expect(voiceToSpeak(ava.voice, undefined, { polly: false })).toEqual({ id: 'espeak:en-us+f5', rate: 160, pitch: 55 });
    // The bots keep their own delivery with espeak-ng: two of them share a voice but not rate and pitch.
    const deliveries = BUILT_IN_BOTS.map((b) => JSON.stringify(voiceToSpeak(b.voice, undefined, { polly: false })));
    expect(new Set(deliveries).size).toBe(BUILT_IN_BOTS.length);
  });

  it("speaks the clip's own voice instead, as it is listed, and a Polly voice where Polly is off by a stand-in of its language and gender", () => {
    expect(voiceToSpeak(ava.voice, 'espeak:es+m3', { polly: true })).toEqual({ id: 'espeak:es+m3' });
    expect(voiceToSpeak(ava.voice, 'polly:Lucia', { polly: true })).toEqual({ id: 'polly:Lucia' });
    expect(voiceToSpeak(ava.voice, 'polly:Lucia', { polly: false })).toEqual({ id: 'espeak:es+f3' });
    expect(voiceToSpeak(ava.voice, 'polly:Takumi', { polly: false })).toEqual({ id: 'espeak:ja+m3' });
  });

  it('picks the engine the voice id names', () => {
    const client = new PollyClient({ region: 'us-east-1' });
    expect(speechEngineFor({ id: 'polly:Joanna' }, { pollyClient: client }).name).toBe('polly');
    expect(speechEngineFor({ id: 'espeak:en-us+f3', rate: 160 }, { pollyClient: client }).name).toBe('espeak');
    expect(() => speechEngineFor({ id: 'other:voice' })).toThrow(/no speech engine/);
  });
});
