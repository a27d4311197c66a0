/**
 * Draws a bot as SVG layers. The engine stacks them at run time: panel (studio card), back (hair behind
 * the head), body (neck, shoulders, clothing) and head (face, hair, eyes, mouth), so the head can move a
 * little on the body and the mouth and eyes can change without redrawing anything else.
 */

import { CANVAS, CARD } from '#media/raster/card';
import { CX, EYE_DX, EYE_Y, HEAD_BOX } from './layout.ts';
import type { Look } from './looks.ts';
import { mouth } from './mouths.ts';

const svg = (body: string, defs = '', viewBox = `0 0 ${CANVAS.width} ${CANVAS.height}`, size: { width: number; height: number } = CANVAS) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="${viewBox}"><defs>${defs}</defs>${body}</svg>`;

const panelPath = `M${CARD.x + CARD.radius} ${CARD.y} h${CARD.width - 2 * CARD.radius} a${CARD.radius} ${CARD.radius} 0 0 1 ${CARD.radius} ${CARD.radius} v${CARD.height - 2 * CARD.radius} a${CARD.radius} ${CARD.radius} 0 0 1 -${CARD.radius} ${CARD.radius} h-${CARD.width - 2 * CARD.radius} a${CARD.radius} ${CARD.radius} 0 0 1 -${CARD.radius} -${CARD.radius} v-${CARD.height - 2 * CARD.radius} a${CARD.radius} ${CARD.radius} 0 0 1 ${CARD.radius} -${CARD.radius} z`;
const panelClip = `<clipPath id="panel"><path d="${panelPath}"/></clipPath>`;

export function panelSvg(look: Look): string {
  const defs = `
    <linearGradient id="bg" x1="0" y1="0" x2="0.35" y2="1">
      <stop offset="0" stop-color="${look.panelTop}"/><stop offset="1" stop-color="${look.panelBottom}"/>
    </linearGradient>
    <radialGradient id="glow" cx="${CX}" cy="250" r="230" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${look.panelGlow}" stop-opacity="0.55"/>
      <stop offset="1" stop-color="${look.panelGlow}" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="gloss" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.22"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/>
    </linearGradient>
    <filter id="shadow" x="-20%" y="-20%" width="140%" height="140%">
      <feDropShadow dx="0" dy="7" stdDeviation="8" flood-color="#000000" flood-opacity="0.38"/>
    </filter>
    ${panelClip}`;
  const rings = [150, 200, 250, 300]
    .map((r) => `<circle cx="${CX}" cy="250" r="${r}" fill="none" stroke="#ffffff" stroke-opacity="${0.07 - r / 10000}" stroke-width="2"/>`)
    .join('');
  return svg(
    `<path d="${panelPath}" fill="url(#bg)" filter="url(#shadow)"/>
     <g clip-path="url(#panel)">
       <rect x="0" y="0" width="${CANVAS.width}" height="${CANVAS.height}" fill="url(#glow)"/>
       ${rings}
       <rect x="${CARD.x}" y="${CARD.y}" width="${CARD.width}" height="150" fill="url(#gloss)"/>
       <rect x="${CARD.x}" y="${CARD.y + CARD.height - 10}" width="${CARD.width}" height="10" fill="${look.accent}" fill-opacity="0.85"/>
     </g>
     <path d="${panelPath}" fill="none" stroke="#ffffff" stroke-opacity="0.28" stroke-width="2"/>`,
    defs,
  );
}

/** One curl: a disc with a darker rim and a soft highlight arc. */
const curl = (look: Look, x: number, y: number, r: number) =>
  `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" fill="${look.hair}" stroke="${look.hairShade}" stroke-width="3"/>` +
  `<path d="M${(x - r * 0.55).toFixed(1)} ${(y - r * 0.1).toFixed(1)} A${(r * 0.6).toFixed(1)} ${(r * 0.6).toFixed(1)} 0 0 1 ${(x + r * 0.1).toFixed(1)} ${(y - r * 0.55).toFixed(1)}" fill="none" stroke="#ffffff" stroke-opacity="0.14" stroke-width="${(r * 0.16).toFixed(1)}" stroke-linecap="round"/>`;

function backHair(look: Look): string {
  const hw = look.faceHalfWidth;
  if (look.hairStyle === 'bob') {
    return `<path d="M${CX - hw - 26} 250 C${CX - hw - 36} 128 ${CX - 62} 88 ${CX} 88 C${CX + 62} 88 ${CX + hw + 36} 128 ${CX + hw + 26} 250
      L${CX + hw + 24} 352 Q${CX + hw + 8} 372 ${CX + hw - 22} 360 L${CX - hw + 22} 360 Q${CX - hw - 8} 372 ${CX - hw - 24} 352 Z" fill="${look.hair}"/>
      <path d="M${CX + hw + 20} 300 L${CX + hw + 18} 350" stroke="${look.hairShade}" stroke-width="6" stroke-linecap="round" opacity="0.5"/>
      <path d="M${CX - hw - 20} 300 L${CX - hw - 18} 350" stroke="${look.hairShade}" stroke-width="6" stroke-linecap="round" opacity="0.5"/>`;
  }
  if (look.hairStyle === 'curls') {
    const curls: string[] = [];
    // A ring of overlapping curls around the head down to the shoulders.
    for (let i = 0; i < 26; i++) {
      const a = Math.PI * 0.98 + (i / 25) * Math.PI * 1.04;
      const rx = hw + 58;
      const x = CX + Math.cos(a) * rx;
      const y = 235 + Math.sin(a) * 150;
      curls.push(curl(look, x, y, 38 + (i % 3) * 5));
    }
    for (const side of [-1, 1]) {
      for (let j = 0; j < 5; j++) {
        curls.push(curl(look, CX + side * (hw + 44 - (j % 2) * 10), 250 + j * 34, 34 - j * 2));
      }
    }
    return `<ellipse cx="${CX}" cy="250" rx="${hw + 70}" ry="175" fill="${look.hair}"/>${curls.join('')}`;
  }
  return '';
}

function outfit(look: Look): string {
  const shoulders = `M${CX - 228} 624 L${CX - 228} 600 C${CX - 228} 500 ${CX - 204} 446 ${CX - 122} 430 L${CX - 42} 414 L${CX + 42} 414 L${CX + 122} 430 C${CX + 204} 446 ${CX + 228} 500 ${CX + 228} 600 L${CX + 228} 624 Z`;
  const torso = `<path d="${shoulders}" fill="url(#cloth)"/>`;
  switch (look.outfit) {
    case 'blazer':
      return `${torso}
        <path d="M${CX - 44} 414 L${CX} 520 L${CX + 44} 414 Z" fill="${look.shirt}"/>
        <path d="M${CX - 30} 414 L${CX} 462 L${CX + 30} 414 Z" fill="url(#neck)"/>
        <path d="M${CX - 46} 412 L${CX - 2} 566 L${CX - 52} 508 L${CX - 84} 458 L${CX - 64} 428 Z" fill="${look.clothShade}" stroke="#ffffff" stroke-opacity="0.12" stroke-width="2"/>
        <path d="M${CX + 46} 412 L${CX + 2} 566 L${CX + 52} 508 L${CX + 84} 458 L${CX + 64} 428 Z" fill="${look.clothShade}" stroke="#ffffff" stroke-opacity="0.12" stroke-width="2"/>
        <circle cx="${CX - 70}" cy="486" r="6" fill="${look.accent}"/>
        <circle cx="${CX}" cy="584" r="5" fill="${look.clothShade}"/>`;
    case 'hoodie':
      return `${torso}
        <path d="M${CX - 40} 414 Q${CX} 452 ${CX + 40} 414 Z" fill="${look.shirt}"/>
        <path d="M${CX - 104} 430 Q${CX - 70} 404 ${CX - 38} 410 Q${CX} 470 ${CX + 38} 410 Q${CX + 70} 404 ${CX + 104} 430 Q${CX + 60} 486 ${CX} 486 Q${CX - 60} 486 ${CX - 104} 430 Z" fill="${look.clothShade}"/>
        <path d="M${CX - 24} 470 L${CX - 28} 548" stroke="${look.accent}" stroke-width="5" stroke-linecap="round"/>
        <path d="M${CX + 24} 470 L${CX + 28} 548" stroke="${look.accent}" stroke-width="5" stroke-linecap="round"/>
        <circle cx="${CX - 28}" cy="552" r="5" fill="${look.accent}"/><circle cx="${CX + 28}" cy="552" r="5" fill="${look.accent}"/>`;
    case 'top':
      return `${torso}
        <path d="M${CX - 76} 420 Q${CX} 506 ${CX + 76} 420 L${CX + 42} 414 L${CX - 42} 414 Z" fill="url(#neck)"/>
        <path d="M${CX - 76} 420 Q${CX} 506 ${CX + 76} 420" fill="none" stroke="${look.clothShade}" stroke-width="6"/>
        <path d="M${CX - 52} 420 Q${CX} 474 ${CX + 52} 420" fill="none" stroke="#f5d061" stroke-width="2.5"/>
        <circle cx="${CX}" cy="${447 + 4}" r="6" fill="#f5d061"/>`;
    case 'tweed': {
      const weave = Array.from(
        { length: 22 },
        (_, i) => `<path d="M${CX - 240} ${430 + i * 8} L${CX + 240} ${420 + i * 8}" stroke="#000000" stroke-opacity="0.06" stroke-width="2"/>`,
      ).join('');
      return `${torso}<g clip-path="url(#torso)">${weave}</g>
        <path d="M${CX - 46} 414 L${CX} 540 L${CX + 46} 414 Z" fill="${look.shirt}"/>
        <path d="M${CX - 46} 412 L${CX - 12} 446 L${CX - 4} 418 Z" fill="#ffffff" stroke="#9fb3c8" stroke-width="1.5"/>
        <path d="M${CX + 46} 412 L${CX + 12} 446 L${CX + 4} 418 Z" fill="#ffffff" stroke="#9fb3c8" stroke-width="1.5"/>
        <path d="M${CX - 10} 422 L${CX + 10} 422 L${CX + 7} 440 L${CX - 7} 440 Z" fill="${look.accent}"/>
        <path d="M${CX - 7} 440 L${CX + 7} 440 L${CX + 16} 540 L${CX} 560 L${CX - 16} 540 Z" fill="${look.accent}"/>
        <path d="M${CX - 48} 412 L${CX - 4} 580 L${CX - 56} 510 L${CX - 90} 460 L${CX - 68} 428 Z" fill="${look.clothShade}"/>
        <path d="M${CX + 48} 412 L${CX + 4} 580 L${CX + 56} 510 L${CX + 90} 460 L${CX + 68} 428 Z" fill="${look.clothShade}"/>`;
    }
  }
}

export function backSvg(look: Look): string {
  return svg(`<g clip-path="url(#panel)">${backHair(look)}</g>`, panelClip);
}

export function bodySvg(look: Look): string {
  const defs = `${panelClip}
    <linearGradient id="cloth" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="${look.clothShade}"/><stop offset="0.3" stop-color="${look.cloth}"/>
      <stop offset="0.7" stop-color="${look.cloth}"/><stop offset="1" stop-color="${look.clothShade}"/>
    </linearGradient>
    <linearGradient id="neck" x1="0" y1="300" x2="0" y2="430" gradientUnits="userSpaceOnUse">
      <stop offset="0.45" stop-color="${look.skinShade}"/><stop offset="0.62" stop-color="${look.skin}"/>
    </linearGradient>
    <clipPath id="torso"><path d="M${CX - 228} 600 C${CX - 228} 500 ${CX - 204} 446 ${CX - 122} 430 L${CX + 122} 430 C${CX + 204} 446 ${CX + 228} 500 ${CX + 228} 600 Z"/></clipPath>`;
  const neck = `<path d="M${CX - 33} 300 L${CX - 36} 430 L${CX + 36} 430 L${CX + 33} 300 Z" fill="url(#neck)"/>`;
  return svg(`<g clip-path="url(#panel)">${neck}<g transform="translate(0 -20)">${outfit(look)}</g></g>`, defs);
}

function frontHair(look: Look): string {
  const hw = look.faceHalfWidth;
  switch (look.hairStyle) {
    case 'bob':
      return `<path d="M${CX - hw - 8} 262 C${CX - hw - 16} 160 ${CX - 52} 108 ${CX + 6} 110 C${CX + 64} 112 ${CX + hw + 16} 150 ${CX + hw + 8} 262
        C${CX + hw - 4} 210 ${CX + hw - 18} 182 ${CX + 34} 168 C${CX - 8} 188 ${CX - 56} 196 ${CX - hw + 6} 258 Z" fill="${look.hair}"/>
        <path d="M${CX - 40} 128 C${CX} 116 ${CX + 40} 122 ${CX + 66} 146" fill="none" stroke="#ffffff" stroke-opacity="0.16" stroke-width="7" stroke-linecap="round"/>`;
    case 'quiff':
      return `<path d="M${CX - hw - 2} 238 C${CX - hw - 8} 150 ${CX - 50} 112 ${CX - 4} 108 C${CX + 30} 84 ${CX + 84} 96 ${CX + hw + 4} 150 C${CX + hw + 8} 180 ${CX + hw + 4} 210 ${CX + hw} 236
        L${CX + hw - 8} 196 C${CX + 48} 166 ${CX - 16} 160 ${CX - hw + 8} 204 Z" fill="${look.hair}"/>
        <path d="M${CX - 30} 120 C${CX + 10} 98 ${CX + 50} 104 ${CX + 72} 128" fill="none" stroke="#ffffff" stroke-opacity="0.15" stroke-width="6" stroke-linecap="round"/>
        <rect x="${CX - hw - 1}" y="220" width="9" height="40" rx="4" fill="${look.hair}"/>
        <rect x="${CX + hw - 8}" y="220" width="9" height="40" rx="4" fill="${look.hair}"/>`;
    case 'curls': {
      const curls: string[] = [];
      for (let i = 0; i < 11; i++) {
        const a = Math.PI * 1.05 + (i / 10) * Math.PI * 0.9;
        const x = CX + Math.cos(a) * (hw + 6);
        const y = 205 + Math.sin(a) * 82;
        curls.push(curl(look, x, y, 24 + (i % 2) * 5));
      }
      return curls.join('');
    }
    case 'receding':
      return `<path d="M${CX - hw - 4} 262 C${CX - hw - 10} 200 ${CX - hw + 6} 160 ${CX - 52} 142 C${CX - hw + 18} 180 ${CX - hw + 12} 214 ${CX - hw + 8} 262 Z" fill="${look.hair}"/>
        <path d="M${CX + hw + 4} 262 C${CX + hw + 10} 200 ${CX + hw - 6} 160 ${CX + 52} 142 C${CX + hw - 18} 180 ${CX + hw - 12} 214 ${CX + hw - 8} 262 Z" fill="${look.hair}"/>
        <path d="M${CX - 40} 136 C${CX - 10} 128 ${CX + 16} 128 ${CX + 40} 136" fill="none" stroke="${look.hair}" stroke-width="7" stroke-linecap="round" opacity="0.8"/>`;
  }
}

function eye(look: Look, x: number, open: boolean): string {
  const brow = `<path d="M${x - 19} ${EYE_Y - 22} Q${x} ${EYE_Y - 32} ${x + 19} ${EYE_Y - 24}" fill="none" stroke="${look.brow}" stroke-width="6" stroke-linecap="round"/>`;
  const outer = x < CX ? -1 : 1;
  const lashes = look.lashes
    ? `<path d="M${x + outer * 15} ${EYE_Y - 3} l${outer * 7} -5 M${x + outer * 11} ${EYE_Y - 7} l${outer * 5} -6" stroke="#1a0f0a" stroke-width="2.4" stroke-linecap="round"/>`
    : '';
  if (!open) {
    return `${brow}<path d="M${x - 16} ${EYE_Y} Q${x} ${EYE_Y + 8} ${x + 16} ${EYE_Y}" fill="none" stroke="#2a1a14" stroke-width="3.2" stroke-linecap="round"/>
      <path d="M${x - 17} ${EYE_Y - 3} Q${x} ${EYE_Y - 4} ${x + 17} ${EYE_Y - 3}" fill="none" stroke="${look.skinShade}" stroke-width="2" opacity="0.6"/>${lashes.replace(/-5/g, '4').replace(/-6/g, '5')}`;
  }
  return `${brow}
    <ellipse cx="${x}" cy="${EYE_Y}" rx="15.5" ry="10" fill="#fbfaf7"/>
    <clipPath id="eye${x}"><ellipse cx="${x}" cy="${EYE_Y}" rx="15.5" ry="10"/></clipPath>
    <g clip-path="url(#eye${x})">
      <circle cx="${x}" cy="${EYE_Y + 1}" r="8.2" fill="${look.iris}"/>
      <circle cx="${x}" cy="${EYE_Y + 1}" r="4" fill="#120b08"/>
      <circle cx="${x + 3}" cy="${EYE_Y - 2.5}" r="2.3" fill="#ffffff"/>
    </g>
    <path d="M${x - 17} ${EYE_Y + 1} Q${x} ${EYE_Y - 15} ${x + 17} ${EYE_Y - 1}" fill="none" stroke="#2a1a14" stroke-width="3.2" stroke-linecap="round"/>
    ${lashes}`;
}

function beard(look: Look): string {
  if (!look.beard) return '';
  const hw = look.faceHalfWidth;
  if (look.hairStyle === 'quiff') {
    // Stubble: a light shadow along the jaw and over the lip.
    return `<g clip-path="url(#face)"><path d="M${CX - hw + 2} 262 C${CX - hw + 4} 320 ${CX - 40} ${look.chinY + 2} ${CX} ${look.chinY + 2} C${CX + 40} ${look.chinY + 2} ${CX + hw - 4} 320 ${CX + hw - 2} 262
        C${CX + hw - 20} 300 ${CX + 40} 300 ${CX} 300 C${CX - 40} 300 ${CX - hw + 20} 300 ${CX - hw + 2} 262 Z" fill="${look.beard}" opacity="0.28"/>
      <path d="M${CX - 30} 302 Q${CX} 292 ${CX + 30} 302" fill="none" stroke="${look.beard}" stroke-width="7" stroke-linecap="round" opacity="0.3"/></g>`;
  }
  return `<path d="M${CX - hw - 2} 250 C${CX - hw} 340 ${CX - 50} ${look.chinY + 22} ${CX} ${look.chinY + 24} C${CX + 50} ${look.chinY + 22} ${CX + hw} 340 ${CX + hw + 2} 250
      C${CX + hw - 12} 296 ${CX + 52} 300 ${CX + 40} 330 C${CX + 30} 352 ${CX - 30} 352 ${CX - 40} 330 C${CX - 52} 300 ${CX - hw + 12} 296 ${CX - hw - 2} 250 Z" fill="${look.beard}"/>
    <path d="M${CX - hw - 2} 250 C${CX - hw} 340 ${CX - 50} ${look.chinY + 22} ${CX} ${look.chinY + 24} C${CX + 50} ${look.chinY + 22} ${CX + hw} 340 ${CX + hw + 2} 250" fill="none" stroke="#a19c96" stroke-width="2" opacity="0.6"/>`;
}

function moustache(look: Look): string {
  if (!look.beard || look.hairStyle === 'quiff') return '';
  return `<path d="M${CX} 298 C${CX - 14} 290 ${CX - 34} 292 ${CX - 40} 310 C${CX - 30} 304 ${CX - 14} 306 ${CX} 304 C${CX + 14} 306 ${CX + 30} 304 ${CX + 40} 310 C${CX + 34} 292 ${CX + 14} 290 ${CX} 298 Z" fill="${look.beard}" stroke="#a19c96" stroke-width="1.5"/>`;
}

function glasses(look: Look): string {
  if (!look.glasses) return '';
  const lens = (x: number) =>
    `<rect x="${x - 25}" y="${EYE_Y - 18}" width="50" height="36" rx="14" fill="#ffffff" fill-opacity="0.1" stroke="${look.glasses}" stroke-width="4"/>`;
  return `${lens(CX - EYE_DX)}${lens(CX + EYE_DX)}
    <path d="M${CX - 9} ${EYE_Y - 4} Q${CX} ${EYE_Y - 10} ${CX + 9} ${EYE_Y - 4}" fill="none" stroke="${look.glasses}" stroke-width="4"/>
    <path d="M${CX - EYE_DX - 25} ${EYE_Y - 6} L${CX - look.faceHalfWidth} ${EYE_Y - 10}" stroke="${look.glasses}" stroke-width="4"/>
    <path d="M${CX + EYE_DX + 25} ${EYE_Y - 6} L${CX + look.faceHalfWidth} ${EYE_Y - 10}" stroke="${look.glasses}" stroke-width="4"/>`;
}

/** The head layer for one mouth frame (`m0` closed .. `m4` wide open, or a shape's `r1`, `w2`, `fv`…) and eye state, cropped to HEAD_BOX. */
export function headSvg(look: Look, mouthFrame: string, eyesOpen: boolean): string {
  const hw = look.faceHalfWidth;
  const chin = look.chinY;
  const face = `M${CX - hw} 236 C${CX - hw} 158 ${CX - hw * 0.62} 132 ${CX} 132 C${CX + hw * 0.62} 132 ${CX + hw} 158 ${CX + hw} 236
    C${CX + hw} 292 ${CX + hw * 0.56} ${chin} ${CX} ${chin} C${CX - hw * 0.56} ${chin} ${CX - hw} 292 ${CX - hw} 236 Z`;
  const defs = `
    <radialGradient id="skin" cx="${CX - 14}" cy="222" r="${hw * 1.45}" gradientUnits="userSpaceOnUse">
      <stop offset="0.62" stop-color="${look.skin}"/><stop offset="1" stop-color="${look.skinShade}"/>
    </radialGradient>
    <radialGradient id="blush" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="${look.lip}" stop-opacity="0.28"/><stop offset="1" stop-color="${look.lip}" stop-opacity="0"/>
    </radialGradient>
    <clipPath id="face"><path d="${face}"/></clipPath>`;
  const ear = (side: -1 | 1) =>
    `<ellipse cx="${CX + side * (hw - 2)}" cy="258" rx="13" ry="22" fill="${look.skin}"/>
     <ellipse cx="${CX + side * (hw + 1)}" cy="258" rx="6" ry="13" fill="${look.skinShade}" opacity="0.6"/>`;
  const earring = (side: -1 | 1) => {
    if (!look.earrings) return '';
    return look.hairStyle === 'curls'
      ? `<circle cx="${CX + side * (hw + 2)}" cy="290" r="11" fill="none" stroke="${look.earrings}" stroke-width="3.5"/>`
      : `<circle cx="${CX + side * (hw + 1)}" cy="280" r="5" fill="${look.earrings}"/>`;
  };
  const nose = `<path d="M${CX - 2} 258 Q${CX - 9} 284 ${CX - 2} 289" fill="none" stroke="${look.skinShade}" stroke-width="3" stroke-linecap="round"/>
    <path d="M${CX - 12} 291 Q${CX} 298 ${CX + 12} 291" fill="none" stroke="${look.skinShade}" stroke-width="2.6" stroke-linecap="round"/>`;
  const cheeks = `<circle cx="${CX - 50}" cy="286" r="20" fill="url(#blush)"/><circle cx="${CX + 50}" cy="286" r="20" fill="url(#blush)"/>`;
  const body = `${ear(-1)}${ear(1)}
    <path d="${face}" fill="url(#skin)"/>
    ${cheeks}${beard(look)}${nose}
    ${eye(look, CX - EYE_DX, eyesOpen)}${eye(look, CX + EYE_DX, eyesOpen)}
    ${mouth(look, mouthFrame)}${moustache(look)}
    ${frontHair(look)}${glasses(look)}${earring(-1)}${earring(1)}`;
  return svg(body, defs, `${HEAD_BOX.x} ${HEAD_BOX.y} ${HEAD_BOX.width} ${HEAD_BOX.height}`, HEAD_BOX);
}

/** Everything stacked, for the preview image. */
export function previewSvg(look: Look, size: number): string {
  const strip = (s: string) => s.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '');
  const head = headSvg(look, 'm1', true).replace(
    /^<svg[^>]*>/,
    `<svg x="${HEAD_BOX.x}" y="${HEAD_BOX.y}" width="${HEAD_BOX.width}" height="${HEAD_BOX.height}" viewBox="${HEAD_BOX.x} ${HEAD_BOX.y} ${HEAD_BOX.width} ${HEAD_BOX.height}">`,
  );
  const scale = size / CANVAS.height;
  const offsetX = (size - CANVAS.width * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <rect width="${size}" height="${size}" fill="#eef1f6"/>
    <g transform="translate(${offsetX} 0) scale(${scale})">
      <g>${strip(panelSvg(look))}</g><g>${strip(backSvg(look))}</g><g>${strip(bodySvg(look))}</g>${head}
    </g></svg>`;
}
