/**
 * The features the warp of synthesis-alignment.ts compares, computed in the process for speed, held to what the
 * refusal bars were measured with: the MFCCs to Meyda's `mfcc` (mfcc.ts), espeak-ng's reading resampled to 16 kHz to
 * ffmpeg's resampler (resample.ts). And espeak-ng's kept instance to a fresh one.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Meyda from 'meyda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechScriptOf } from '#domain/lexicon';
import { espeakVoiceArgument } from '#domain/voices';
import { EspeakSpeechEngine, speakSsml } from '#functions/render/speech/espeak.ts';
import { mfccFrames } from '#functions/render/speech/mfcc.ts';
import { resample } from '#functions/render/speech/resample.ts';
import { runFfmpeg } from '#media/media';
import { readWav } from '#media/wav';

let dir: string;
/** espeak-ng's reading of a sentence (22,050 Hz) and ffmpeg's 16-kHz copy of it. */
let reading: { samples: Float32Array; sampleRate: number };
let byFfmpeg: Float32Array;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'speech-features-'));
  const text = 'I am willing to marry you if you will give me the twenty pounds a year which my aunt promised.';
  const spoken = await new EspeakSpeechEngine().synthesize(speechScriptOf(text), { id: 'espeak:en-us+m3' }, dir);
  reading = readWav(spoken.wavPath);
  const out = join(dir, '16k.wav');
  await runFfmpeg(['-protocol_whitelist', 'file', '-f', 'wav', '-i', spoken.wavPath, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-y', out], {
    budgetSeconds: 60,
  });
  byFfmpeg = readWav(out).samples;
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Meyda's MFCCs as the warp used them: 13 coefficients of a 512-sample Hamming window every 160 samples, the first left out, less their means. */
function meydaFrames(samples: Float32Array): number[][] {
  Object.assign(Meyda, { bufferSize: 512, sampleRate: 16_000, melBands: 40, numberOfMFCCCoefficients: 13, windowingFunction: 'hamming' });
  const frames: number[][] = [];
  const window = new Float32Array(512);
  for (let start = 0; start + 160 <= samples.length; start += 160) {
    window.fill(0);
    window.set(samples.subarray(start, Math.min(samples.length, start + 512)));
    const mfcc = Meyda.extract('mfcc', window) as unknown as number[];
    frames.push(mfcc.slice(1));
  }
  const mean = Array.from({ length: 12 }, (_, k) => frames.reduce((sum, f) => sum + f[k]!, 0) / frames.length);
  return frames.map((f) => f.map((v, k) => v - mean[k]!));
}

describe("the warp's features", () => {
  it("are Meyda's MFCCs, to 0.001 on coefficients of up to about 100", () => {
    const ours = mfccFrames(byFfmpeg);
    const meyda = meydaFrames(byFfmpeg);
    expect(ours).toHaveLength(meyda.length);
    let largest = 0;
    let worst = 0;
    meyda.forEach((frame, i) =>
      frame.forEach((v, k) => {
        largest = Math.max(largest, Math.abs(v));
        worst = Math.max(worst, Math.abs(v - ours[i]![k]!));
      }),
    );
    expect(largest).toBeGreaterThan(20);
    expect(worst).toBeLessThan(0.001);
  });

  it("resample espeak-ng's 22,050 Hz to 16 kHz as ffmpeg does: each sample within 0.002, the MFCCs within 0.01", () => {
    expect(reading.sampleRate).toBe(22_050);
    const ours = resample(reading.samples, reading.sampleRate, 16_000);
    expect(ours.length).toBe(byFfmpeg.length);
    let worst = 0;
    for (let i = 0; i < ours.length; i++) worst = Math.max(worst, Math.abs(ours[i]! - byFfmpeg[i]!));
    expect(worst).toBeLessThan(0.002);
    const a = mfccFrames(ours);
    const b = mfccFrames(byFfmpeg);
    let worstCoefficient = 0;
    a.forEach((frame, i) => frame.forEach((v, k) => (worstCoefficient = Math.max(worstCoefficient, Math.abs(v - b[i]![k]!)))));
    expect(worstCoefficient).toBeLessThan(0.01);
  });

  it('keep a tone at its pitch and level through the resampler, with nothing above the new Nyquist folded back', () => {
    const tone = (hz: number) => Float32Array.from({ length: 22_050 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / 22_050));
    const rms = (x: Float32Array) => Math.sqrt(x.subarray(1000, x.length - 1000).reduce((s, v) => s + v * v, 0) / (x.length - 2000));
    const kept = resample(tone(1000), 22_050, 16_000);
    expect(kept).toHaveLength(16_000);
    expect(rms(kept)).toBeCloseTo(0.5 / Math.SQRT2, 3);
    // 10 kHz is above 16 kHz's Nyquist (8 kHz): it would fold to 6 kHz; it is filtered out instead.
    expect(rms(resample(tone(10_000), 22_050, 16_000))).toBeLessThan(0.001);
  });
});

describe("espeak-ng's kept instance, which reads transcripts to align them", () => {
  it('reads a text as a fresh instance does, sample for sample, whatever it read before, in English and French, and with a breathy voice', async () => {
    const texts = ['One sentence first, to leave the instance in another state.', 'Then the text: forty-two words, and a pause.'];
    for (const id of ['espeak:en-us+m3', 'espeak:fr-fr+m3', 'espeak:en-us+f3']) {
      const voice = espeakVoiceArgument(id)!;
      const fresh = await speakSsml(`<speak>${texts[1]}</speak>`, { voice });
      await speakSsml(`<speak>${texts[0]}</speak>`, { voice, reuse: true });
      const kept = await speakSsml(`<speak>${texts[1]}</speak>`, { voice, reuse: true });
      expect(kept.samples.length, id).toBe(fresh.samples.length);
      expect(Buffer.from(kept.samples.buffer).equals(Buffer.from(fresh.samples.buffer)), id).toBe(true);
      expect(kept.events).toEqual(fresh.events);
    }
  }, 120_000);

  it("speaks a clip's phrases, markup, rate and pitch included, as fresh instances do, after another voice's reading", async () => {
    const voice = { id: 'espeak:en-us+f3', rate: 190, pitch: 60 };
    const script = speechScriptOf(
      'Say <emphasis level="strong">this</emphasis> <say-as interpret-as="characters">NASA</say-as><break time="400ms"/> and then forty-two.',
    );
    const phrases = async (reuse: boolean) => {
      const spoken = await new EspeakSpeechEngine(reuse).synthesize(script, voice, await mkdtemp(join(dir, 'phrases-')));
      return readFileSync(spoken.wavPath);
    };
    const fresh = await phrases(false);
    await speakSsml('<speak>Another account read this first, in another voice.</speak>', {
      voice: espeakVoiceArgument('espeak:fr-fr+m3')!,
      reuse: true,
    });
    await speakSsml('<speak>And this, in the same voice.</speak>', { voice: espeakVoiceArgument(voice.id)!, rate: 190, pitch: 60, reuse: true });
    const kept = await phrases(true);
    expect(kept.length).toBeGreaterThan(44_100);
    expect(kept.equals(fresh)).toBe(true);
  }, 120_000);

  it('reads as a fresh instance after a run past its time limit stopped the thread', async () => {
    const voice = espeakVoiceArgument('espeak:en-us+f3')!;
    const text = '<speak>After the stop, the same words as ever.</speak>';
    const fresh = await speakSsml(text, { voice });
    await speakSsml('<speak>Read before the stop.</speak>', { voice, reuse: true });
    await expect(speakSsml(`<speak>${'A long reading that is stopped. '.repeat(200)}</speak>`, { voice, reuse: true }, 5)).rejects.toThrow(/stopped/);
    const kept = await speakSsml(text, { voice, reuse: true });
    expect(Buffer.from(kept.samples.buffer).equals(Buffer.from(fresh.samples.buffer))).toBe(true);
    expect(kept.events).toEqual(fresh.events);
  }, 120_000);

  it('stops a reading once it passes its bound (a transcript of a sentence a letter), and reads as a fresh instance after', async () => {
    const voice = { id: 'espeak:en-us+m3' };
    // 4,000 sentences of a letter: about 2,333 s of speech, at 0.58 s each (infra/scripts/measure/transcript-reading.ts).
    const script = speechScriptOf('a! '.repeat(4000).trim());
    const engine = new EspeakSpeechEngine(true);
    const started = process.cpuUsage();
    const cut = await engine.synthesize(script, voice, await mkdtemp(join(dir, 'cut-')), { stopAfterSeconds: 6 });
    const cpu = process.cpuUsage(started);
    expect(cut.stopped).toBe(true);
    expect(cut.durationSeconds).toBeGreaterThan(6);
    expect(cut.durationSeconds).toBeLessThan(7);
    expect(readWav(cut.wavPath).samples.length / cut.sampleRate).toBeCloseTo(cut.durationSeconds, 2);
    // The words it read are timed within what it read.
    expect(cut.words.at(-1)!.endSeconds).toBeLessThanOrEqual(cut.durationSeconds + 0.001);
    // A short text read within its bound is whole, and read as a fresh instance reads it.
    const text = 'Then the text: forty-two words, and a pause.';
    const whole = await engine.synthesize(speechScriptOf(text), voice, await mkdtemp(join(dir, 'after-')), { stopAfterSeconds: 60 });
    const fresh = await new EspeakSpeechEngine(false).synthesize(speechScriptOf(text), voice, await mkdtemp(join(dir, 'fresh-')));
    expect(whole.stopped).toBeUndefined();
    expect(readFileSync(whole.wavPath).equals(readFileSync(fresh.wavPath))).toBe(true);
    // The process's CPU (every thread's, espeak-ng's included): read whole, about 3.4 s here; cut, a few hundredths.
    expect(cpu.user + cpu.system).toBeLessThan(1_000_000);
  }, 120_000);
});
