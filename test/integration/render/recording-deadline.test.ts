/**
 * Every ffmpeg run of a recording's preparation ends before the render's deadline, the decode check's included:
 * uncut, its budget for a 10-minute recording (budgetFor(300) = 1,260 s) would pass the render function's 15 minutes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { limits } from '#domain/limits';
import { decodeCheckBudget } from '#functions/media/decode-check.ts';
import { budgetFor, runFfmpeg } from '#media/media';
import { prepareRecording } from '#media/recording';
import { wavFromPcm16 } from '#media/wav';

vi.mock('#media/media', async (original) => {
  const actual = await original<typeof import('#media/media')>();
  return { ...actual, runFfmpeg: vi.fn(actual.runFfmpeg) };
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recording-deadline-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a recording's preparation and the render's deadline", () => {
  it("cuts the decode check's budget for a 10-minute recording at the deadline", () => {
    const now = 1_000_000;
    const deadline = now + 14 * 60 * 1000;
    expect(budgetFor(limits.maxRecordedSpeechSeconds / 2)).toBeGreaterThan(15 * 60);
    expect(decodeCheckBudget(limits.maxRecordedSpeechSeconds, deadline, now)).toBe(14 * 60);
    expect(decodeCheckBudget(limits.maxRecordedSpeechSeconds, undefined, now)).toBe(budgetFor(limits.maxRecordedSpeechSeconds / 2));
  });

  it('gives every ffmpeg run, the decode check first, a budget that ends before the deadline', async () => {
    const rate = 8000;
    const pcm = Buffer.alloc(3 * rate * 2);
    for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate)), i * 2);
    const path = join(dir, 'tone.wav');
    await writeFile(path, wavFromPcm16(pcm, rate));
    const run = vi.mocked(runFfmpeg);
    run.mockClear();

    await prepareRecording(path, dir, limits.maxRecordedSpeechSeconds, Date.now() + 20_000);

    const budgets = run.mock.calls.map(([, options]) => options.budgetSeconds);
    expect(run.mock.calls.some(([args]) => args.includes('-xerror'))).toBe(true);
    expect(budgets.length).toBeGreaterThan(1);
    for (const budget of budgets) expect(budget).toBeLessThanOrEqual(20);
  });
});
