/**
 * The music presets: short beds synthesised here, deterministically, so nothing is downloaded and no licence
 * applies. Each is a loop of chords (soft additive pads: a few sine partials, two voices detuned a few cents
 * and spread left and right, slow attacks and releases), over a sine bass, with a gentle plucked arpeggio for
 * "upbeat" and a high shimmer for "ambient". Notes are written into a circular buffer, so a note ringing past
 * the loop's end continues at its start: the loop is seamless by construction. Each bed is brought to about
 * -20 LUFS (checked in test/integration/render/music.test.ts) before the caller's volume.
 */
import type { MusicPreset } from '#domain/choices';
import { MUSIC_SAMPLE_RATE } from './music.ts';
import { wavFromPcm16 } from './wav.ts';

interface Note {
  /** MIDI note number (60 = middle C). */
  midi: number;
  startSeconds: number;
  seconds: number;
  gain: number;
  kind: 'pad' | 'bass' | 'pluck' | 'shimmer';
  /** -1 (left) to 1 (right). */
  pan?: number;
}

interface Bed {
  loopSeconds: number;
  notes: Note[];
}

const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** Chords (MIDI notes, the lowest first: the bass plays it an octave down) each held `seconds`. */
function padChords(chords: number[][], seconds: number, gain: number): Note[] {
  return chords.flatMap((chord, i) => [
    ...chord.map((midi, j) => ({ midi, startSeconds: i * seconds, seconds, gain, kind: 'pad' as const, pan: (j / (chord.length - 1)) * 0.8 - 0.4 })),
    { midi: chord[0]! - 12, startSeconds: i * seconds, seconds, gain: gain * 1.4, kind: 'bass' as const },
  ]);
}

function bedOf(preset: MusicPreset): Bed {
  switch (preset) {
    case 'calm': {
      // C major: Cmaj7, Am7, Fmaj7, G6 — 4 s each, voiced close around middle C.
      const chords = [
        [48, 55, 59, 64],
        [45, 55, 60, 64],
        [41, 57, 60, 64],
        [43, 55, 59, 62],
      ];
      return { loopSeconds: 16, notes: padChords(chords, 4, 1) };
    }
    case 'upbeat': {
      // D major: D, A, Bm, G — 2 s each at 120 bpm, with an eighth-note arpeggio two octaves up.
      const chords = [
        [50, 57, 62, 66],
        [45, 57, 61, 64],
        [47, 54, 59, 62],
        [43, 55, 59, 62],
      ];
      const pattern = [0, 1, 2, 3, 2, 1, 2, 3];
      const plucks = chords.flatMap((chord, i) =>
        pattern.map((p, k) => ({
          midi: chord[p]! + 12,
          startSeconds: i * 2 + k * 0.25,
          seconds: 0.6,
          gain: k % 2 ? 0.55 : 0.75,
          kind: 'pluck' as const,
          pan: k % 2 ? 0.3 : -0.3,
        })),
      );
      return { loopSeconds: 8, notes: [...padChords(chords, 2, 0.6), ...plucks] };
    }
    case 'ambient': {
      // Open fifths on A and D, 8 s each, with a slow high shimmer.
      const chords = [
        [45, 52, 57, 64],
        [38, 45, 50, 57],
        [41, 48, 53, 60],
        [43, 50, 55, 62],
      ];
      const shimmer = chords.map((chord, i) => ({
        midi: chord[3]! + 12,
        startSeconds: i * 8 + 2,
        seconds: 6,
        gain: 0.25,
        kind: 'shimmer' as const,
        pan: i % 2 ? 0.5 : -0.5,
      }));
      return { loopSeconds: 32, notes: [...padChords(chords, 8, 1), ...shimmer] };
    }
  }
}

/** Attack, release and partials of each kind of note (soft: no partial above the 4th, no edge sharper than 5 ms). */
const VOICES = {
  pad: { attack: 1.2, release: 1.8, partials: [1, 0.3, 0.1, 0.04], detuneCents: 4 },
  bass: { attack: 0.6, release: 1.2, partials: [1, 0.15], detuneCents: 0 },
  shimmer: { attack: 2.5, release: 3, partials: [1], detuneCents: 6 },
  pluck: { attack: 0.005, release: 0.3, partials: [1, 0.25, 0.05], detuneCents: 0 },
} as const;

/** 0 to 1 along a raised cosine as x goes from 0 to 1 (a smooth edge: no click). */
const rise = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : 0.5 - 0.5 * Math.cos(Math.PI * x));

/** A note's loudness at `t` seconds after its start: a raised-cosine attack, a hold, a raised-cosine release. */
function envelope(kind: Note['kind'], seconds: number, t: number): number {
  const v = VOICES[kind];
  if (kind === 'pluck') return rise(t / v.attack) * Math.exp(-t / 0.18) * (1 - rise((t - seconds + v.release) / v.release));
  return rise(t / v.attack) * (1 - rise((t - seconds) / v.release));
}

const TABLE_SIZE = 16_384;
const SINE = Float64Array.from({ length: TABLE_SIZE }, (_, i) => Math.sin((2 * Math.PI * i) / TABLE_SIZE));

/** Renders the bed into a circular stereo buffer (a note ringing past the end wraps to the start). */
function renderBed(bed: Bed): [Float64Array, Float64Array] {
  const rate = MUSIC_SAMPLE_RATE;
  const length = Math.round(bed.loopSeconds * rate);
  const left = new Float64Array(length);
  const right = new Float64Array(length);
  for (const note of bed.notes) {
    const voice = VOICES[note.kind];
    const total = note.seconds + (note.kind === 'pluck' ? 0 : voice.release);
    const samples = Math.round(total * rate);
    const first = Math.round(note.startSeconds * rate);
    const pan = note.pan ?? 0;
    const base = hz(note.midi);
    // Two voices, detuned up and down, each leaning to one side.
    const detune = [2 ** (voice.detuneCents / 1200), 2 ** (-voice.detuneCents / 1200)];
    const sides = [
      [0.5 * (1 - pan) * 1.2, 0.5 * (1 + pan) * 0.8],
      [0.5 * (1 - pan) * 0.8, 0.5 * (1 + pan) * 1.2],
    ];
    // Phase accumulators over a sine table (typed arrays, one flat loop): a bed renders in a fraction of a second.
    const count = voice.partials.length;
    const steps = Float64Array.from(detune.flatMap((k) => voice.partials.map((_, p) => (base * k * (p + 1) * TABLE_SIZE) / rate)));
    const amps = Float64Array.from([0, 1].flatMap(() => voice.partials));
    const phases = new Float64Array(steps.length);
    const [[l0, r0], [l1, r1]] = sides as [[number, number], [number, number]];
    // The envelope changes slowly: computed every 32 samples and held between (at most 0.7 ms apart).
    let env = 0;
    for (let i = 0; i < samples; i++) {
      if ((i & 31) === 0) env = envelope(note.kind, note.seconds, i / rate) * note.gain;
      let a = 0;
      let b = 0;
      for (let k = 0; k < count; k++) {
        a += amps[k]! * SINE[phases[k]! | 0]!;
        b += amps[k + count]! * SINE[phases[k + count]! | 0]!;
      }
      for (let k = 0; k < 2 * count; k++) {
        const next = phases[k]! + steps[k]!;
        phases[k] = next >= TABLE_SIZE ? next - TABLE_SIZE : next;
      }
      const at = (first + i) % length;
      left[at]! += (a * l0 + b * l1) * env;
      right[at]! += (a * r0 + b * r1) * env;
    }
  }
  return [left, right];
}

/** Each bed's RMS (both channels) is brought to this, about -20 LUFS for pads in this register. */
const TARGET_RMS_DBFS = -20.8;

const made = new Map<MusicPreset, Buffer>();

/**
 * The preset's loop as a 48 kHz stereo 16-bit WAV (the shape decodeMusic gives a caller's file). Made once per
 * process (a few hundred milliseconds) and kept: a warm function reuses it.
 */
export function presetWav(preset: MusicPreset): Buffer {
  const kept = made.get(preset);
  if (kept) return kept;
  const [left, right] = renderBed(bedOf(preset));
  let sum = 0;
  for (let i = 0; i < left.length; i++) sum += left[i]! ** 2 + right[i]! ** 2;
  const rms = Math.sqrt(sum / (2 * left.length));
  const gain = 10 ** (TARGET_RMS_DBFS / 20) / rms;
  const frames = left.length;
  const pcm = Buffer.alloc(frames * 4);
  const sample = (x: number) => Math.max(-32768, Math.min(32767, Math.round(x * gain * 32767)));
  for (let i = 0; i < frames; i++) {
    pcm.writeInt16LE(sample(left[i]!), i * 4);
    pcm.writeInt16LE(sample(right[i]!), i * 4 + 2);
  }
  const wav = wavFromPcm16(pcm, MUSIC_SAMPLE_RATE, 2);
  made.set(preset, wav);
  return wav;
}
