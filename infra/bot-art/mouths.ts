/**
 * A built-in bot's mouth, one per head frame: the levels `m0`..`m4` (closed to wide open) and the shapes (round
 * `r1`/`r2`, wide `w1`/`w2`, `fv`), as SVG for the head layer (./draw.ts headSvg).
 */
import { CX } from './layout.ts';
import type { Look } from './looks.ts';

const MOUTH_Y = 314;
/** How far each mouth level opens (px at canvas scale): closed, slightly, half, open, wide. */
const MOUTH_OPEN = [0, 6, 12, 18, 25] as const;

/**
 * The inside of an open mouth: the same dark for every look, and no other part of a face is this colour (the
 * mouth-shape test counts it; closed lips meet in a darker lip, `crease`, not in it).
 * @internal Exported for its tests.
 */
export const MOUTH_INTERIOR = '#4a1720';
const TEETH = '#f7f3ec';
const TONGUE = '#c65561';

/** `a` moved `t` of the way toward `b` (#rrggbb). */
function mix(a: string, b: string, t: number): string {
  const rgb = (c: string) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));
  const [x, y] = [rgb(a), rgb(b)];
  return `#${x
    .map((v, i) =>
      Math.round(v + (y[i]! - v) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Where the lips meet: a darker lip, never the interior's colour (closed lips show no inside). */
const crease = (look: Look) => mix(look.lip, MOUTH_INTERIOR, 0.4);
/** The soft shadow under the lower lip. */
const underLip = (look: Look, y: number, hw: number) =>
  `<path d="M${CX - hw} ${y} Q${CX} ${y + 4} ${CX + hw} ${y}" fill="none" stroke="${look.skinShade}" stroke-width="2.5" stroke-linecap="round" opacity="0.7"/>`;

/** Level 0..4: the lips part by MOUTH_OPEN, a little narrower the more they open. */
function levelMouth(look: Look, level: number): string {
  const open = MOUTH_OPEN[level] ?? 0;
  const hw = 25 - level * 1.5;
  const y = MOUTH_Y;
  if (open === 0) {
    return `<path d="M${CX - hw} ${y - 1} Q${CX} ${y + 7} ${CX + hw} ${y - 1}" fill="none" stroke="${look.lip}" stroke-width="5" stroke-linecap="round"/>
      <path d="M${CX - hw + 2} ${y} Q${CX} ${y + 5} ${CX + hw - 2} ${y}" fill="none" stroke="${crease(look)}" stroke-width="2" stroke-linecap="round"/>
      ${underLip(look, y + 11, 12)}`;
  }
  const inner = `M${CX - hw} ${y} Q${CX} ${y - 3} ${CX + hw} ${y} C${CX + hw * 0.6} ${y + open * 1.3} ${CX - hw * 0.6} ${y + open * 1.3} ${CX - hw} ${y} Z`;
  const teeth = Math.min(open * 0.38, 6);
  const tongue = open >= 12 ? `<ellipse cx="${CX}" cy="${y + open * 0.98}" rx="${hw * 0.55}" ry="${open * 0.3}" fill="${TONGUE}"/>` : '';
  return `<clipPath id="mouth"><path d="${inner}"/></clipPath>
    <path d="${inner}" fill="${MOUTH_INTERIOR}"/>
    <g clip-path="url(#mouth)">
      <rect x="${CX - hw}" y="${y - 4}" width="${hw * 2}" height="${teeth + 4}" rx="3" fill="${TEETH}"/>
      ${tongue}
    </g>
    <path d="${inner}" fill="none" stroke="${look.lip}" stroke-width="5" stroke-linejoin="round"/>`;
}

/** A soft light on the lower lip. */
const lipLight = (cy: number, hw: number) =>
  `<path d="M${CX - hw} ${cy} Q${CX} ${cy + 2} ${CX + hw} ${cy}" fill="none" stroke="#ffffff" stroke-opacity="0.28" stroke-width="2" stroke-linecap="round"/>`;

/**
 * `r1`: lips pushed forward into a small puckered cushion round a small opening, "oo" of "who"; `r2`: an upright oval,
 * the ring open, "o". Both far narrower than the resting mouth.
 */
function roundMouth(look: Look, open: boolean): string {
  const y = MOUTH_Y;
  // Outer half-width and half-height, the centre, and the opening's half-width, half-height and centre.
  const [rx, ry, cy, ix, iy, icy] = open ? [15, 16.5, y + 7, 9.5, 11.5, y + 6] : [12.5, 9.5, y + 3, 4.8, 3.2, y + 2.6];
  const lips = `M${CX - rx} ${cy} C${CX - rx} ${cy - ry * 0.85} ${CX - rx * 0.4} ${cy - ry * 1.05} ${CX} ${cy - ry * 0.86}
    C${CX + rx * 0.4} ${cy - ry * 1.05} ${CX + rx} ${cy - ry * 0.85} ${CX + rx} ${cy}
    C${CX + rx} ${cy + ry * 0.85} ${CX + rx * 0.5} ${cy + ry} ${CX} ${cy + ry} C${CX - rx * 0.5} ${cy + ry} ${CX - rx} ${cy + ry * 0.85} ${CX - rx} ${cy} Z`;
  const inside = `<ellipse cx="${CX}" cy="${icy}" rx="${ix}" ry="${iy}" fill="${MOUTH_INTERIOR}"/>`;
  // Puckered lips: a few short folds above and below the opening.
  const folds = open
    ? ''
    : `<path d="M${CX - 3.5} ${icy - iy - 1} L${CX - 4.5} ${icy - iy - 4.5} M${CX + 3.5} ${icy - iy - 1} L${CX + 4.5} ${icy - iy - 4.5}
        M${CX - 3.5} ${icy + iy + 1} L${CX - 4.5} ${icy + iy + 4.5} M${CX + 3.5} ${icy + iy + 1} L${CX + 4.5} ${icy + iy + 4.5}"
        stroke="${crease(look)}" stroke-width="1.2" stroke-linecap="round" opacity="0.6"/>`;
  const teethAndTongue = open
    ? `<clipPath id="mouth"><ellipse cx="${CX}" cy="${icy}" rx="${ix}" ry="${iy}"/></clipPath>
       <g clip-path="url(#mouth)">
         <rect x="${CX - ix}" y="${icy - iy - 2}" width="${ix * 2}" height="5.5" rx="2" fill="${TEETH}"/>
         <ellipse cx="${CX}" cy="${icy + iy}" rx="${ix * 0.75}" ry="${iy * 0.45}" fill="${TONGUE}"/>
       </g>`
    : '';
  return `<path d="${lips}" fill="${look.lip}" stroke="${crease(look)}" stroke-width="1" stroke-opacity="0.45"/>
    ${inside}${teethAndTongue}${folds}
    ${lipLight(cy + ry * (open ? 0.84 : 0.7), rx * 0.3)}
    ${underLip(look, cy + ry + 4, rx * 0.7)}`;
}

/**
 * `w1`: corners pulled out and a thin opening filled by the upper teeth, "ee" of "see"; `w2`: spread and open,
 * "eh", "a" of "cat". Both wider than the resting mouth, with a dimple at each pulled corner.
 */
function wideMouth(look: Look, open: boolean): string {
  const y = MOUTH_Y;
  const [hw, arch, depth, teeth] = open ? [30, 4, 19, 6] : [31, 3.5, 8, 6.5];
  const inner = `M${CX - hw} ${y - 2} Q${CX} ${y - 2 - arch * 2} ${CX + hw} ${y - 2} C${CX + hw * 0.72} ${y - 2 + depth * 1.3} ${CX - hw * 0.72} ${y - 2 + depth * 1.3} ${CX - hw} ${y - 2} Z`;
  const lower = open
    ? `<rect x="${CX - hw * 0.6}" y="${y - 2 + depth - 3.5}" width="${hw * 1.2}" height="6" rx="2" fill="${TEETH}" opacity="0.9"/>`
    : '';
  const tongue = open ? `<ellipse cx="${CX}" cy="${y + depth - 3}" rx="${hw * 0.45}" ry="4.5" fill="${TONGUE}"/>` : '';
  const dimple = (side: -1 | 1) =>
    `<path d="M${CX + side * (hw + 4)} ${y - 7} Q${CX + side * (hw + 7.5)} ${y - 1.5} ${CX + side * (hw + 4)} ${y + 4}" fill="none" stroke="${look.skinShade}" stroke-width="2.2" stroke-linecap="round" opacity="0.8"/>`;
  return `<clipPath id="mouth"><path d="${inner}"/></clipPath>
    <path d="${inner}" fill="${MOUTH_INTERIOR}"/>
    <g clip-path="url(#mouth)">
      <rect x="${CX - hw}" y="${y - 2 - arch * 2}" width="${hw * 2}" height="${arch + teeth}" rx="2" fill="${TEETH}"/>
      ${tongue}${lower}
    </g>
    <path d="${inner}" fill="none" stroke="${look.lip}" stroke-width="${open ? 4.5 : 4}" stroke-linejoin="round"/>
    ${dimple(-1)}${dimple(1)}
    ${underLip(look, y + depth + 6, 11)}`;
}

/** `fv`: the upper teeth resting on the lower lip, which is drawn in under them (f, v): teeth, no dark inside. */
function fvMouth(look: Look): string {
  const y = MOUTH_Y;
  const hw = 23;
  const lowerLip = `M${CX - hw + 3} ${y + 1} Q${CX} ${y + 2} ${CX + hw - 3} ${y + 1} Q${CX + hw * 0.5} ${y + 12} ${CX} ${y + 12} Q${CX - hw * 0.5} ${y + 12} ${CX - hw + 3} ${y + 1} Z`;
  const teeth = `M${CX - 17} ${y - 3} L${CX + 17} ${y - 3} L${CX + 16} ${y + 3} Q${CX} ${y + 5.5} ${CX - 16} ${y + 3} Z`;
  return `<path d="${lowerLip}" fill="${mix(look.lip, look.skinShade, 0.1)}"/>
    <path d="${teeth}" fill="${TEETH}" stroke="${crease(look)}" stroke-width="1" stroke-opacity="0.6"/>
    <path d="M${CX - 6} ${y - 2.5} L${CX - 6} ${y + 3.5} M${CX + 6} ${y - 2.5} L${CX + 6} ${y + 3.5}" stroke="#d9d2c6" stroke-width="0.8"/>
    <path d="M${CX - hw} ${y} Q${CX} ${y - 5} ${CX + hw} ${y}" fill="none" stroke="${look.lip}" stroke-width="5" stroke-linecap="round"/>
    ${underLip(look, y + 16, 10)}`;
}

/** The mouth of one head frame: `m0`..`m4` by level, or a shape's frame (domain/look.ts SHAPE_FRAMES). */
export function mouth(look: Look, frame: string): string {
  switch (frame) {
    case 'r1':
    case 'r2':
      return roundMouth(look, frame === 'r2');
    case 'w1':
    case 'w2':
      return wideMouth(look, frame === 'w2');
    case 'fv':
      return fvMouth(look);
  }
  const level = /^m(\d)$/.exec(frame);
  if (!level) throw new Error(`no mouth frame "${frame}"`);
  return levelMouth(look, Number(level[1]));
}
