/**
 * `npx tsx infra/scripts/example-logo.ts`: draws examples/logo.png, the logo the README's scene puts on its video
 * (a speech bubble with a play mark, 512x512 with alpha). Ours, made here from shapes alone, so it needs no
 * font and no licence but the repository's.
 */
import { resolve } from 'node:path';
import sharp from 'sharp';

const SIZE = 512;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 512 512">
  <defs>
    <linearGradient id="bubble" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#6366f1"/>
      <stop offset="1" stop-color="#3730a3"/>
    </linearGradient>
  </defs>
  <path d="M96 48h320a64 64 0 0 1 64 64v208a64 64 0 0 1-64 64H232l-104 88v-88H96a64 64 0 0 1-64-64V112a64 64 0 0 1 64-64z"
        fill="url(#bubble)" stroke="#ffffff" stroke-width="16" stroke-linejoin="round"/>
  <path d="M212 140v152l128-76z" fill="#ffffff" stroke="#ffffff" stroke-width="20" stroke-linejoin="round"/>
</svg>`;

const out = resolve(import.meta.dirname, '../../examples/logo.png');
await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toFile(out);
console.log(out);
