/**
 * The four built-in looks, described as parameters of one drawing (./draw.ts). Colours and shapes only;
 * everything is drawn by code, so the artwork is ours (no third-party images or licences).
 */

type HairStyle = 'bob' | 'quiff' | 'curls' | 'receding';
type Outfit = 'blazer' | 'hoodie' | 'top' | 'tweed';

export interface Look {
  name: string;
  skin: string;
  skinShade: string;
  lip: string;
  hair: string;
  hairShade: string;
  hairStyle: HairStyle;
  iris: string;
  brow: string;
  /** Face half-width and the chin's height: small differences keep the four from looking cloned. */
  faceHalfWidth: number;
  chinY: number;
  outfit: Outfit;
  cloth: string;
  clothShade: string;
  shirt: string;
  accent: string;
  glasses?: string;
  beard?: string;
  earrings?: string;
  lashes: boolean;
  panelTop: string;
  panelBottom: string;
  panelGlow: string;
}

export const LOOKS: Record<string, Look> = {
  ava: {
    name: 'ava',
    skin: '#f2c9a8',
    skinShade: '#dca383',
    lip: '#b8484f',
    hair: '#3b2418',
    hairShade: '#24150e',
    hairStyle: 'bob',
    iris: '#5b7a3a',
    brow: '#3b2418',
    faceHalfWidth: 76,
    chinY: 346,
    outfit: 'blazer',
    cloth: '#1f2f57',
    clothShade: '#142040',
    shirt: '#f4f1ea',
    accent: '#d4af37',
    earrings: '#e8c45a',
    lashes: true,
    panelTop: '#4f8ff0',
    panelBottom: '#14307a',
    panelGlow: '#bcd7ff',
  },
  leo: {
    name: 'leo',
    skin: '#e6b58e',
    skinShade: '#c98f68',
    lip: '#a4605a',
    hair: '#6b4226',
    hairShade: '#4a2c18',
    hairStyle: 'quiff',
    iris: '#4a6d8c',
    brow: '#5a361f',
    faceHalfWidth: 80,
    chinY: 352,
    outfit: 'hoodie',
    cloth: '#2f855a',
    clothShade: '#22643f',
    shirt: '#1f2933',
    accent: '#f6e05e',
    glasses: '#1d1d1f',
    beard: '#6b4226',
    lashes: false,
    panelTop: '#3dd6c0',
    panelBottom: '#0c5f5a',
    panelGlow: '#c9fff4',
  },
  maya: {
    name: 'maya',
    skin: '#9a6342',
    skinShade: '#7a4a2f',
    lip: '#8c3a40',
    hair: '#1e1411',
    hairShade: '#0f0a08',
    hairStyle: 'curls',
    iris: '#3a2416',
    brow: '#1e1411',
    faceHalfWidth: 74,
    chinY: 342,
    outfit: 'top',
    cloth: '#f2994a',
    clothShade: '#d9772a',
    shirt: '#f2994a',
    accent: '#ffffff',
    earrings: '#f5d061',
    lashes: true,
    panelTop: '#ff8fa3',
    panelBottom: '#a3154a',
    panelGlow: '#ffe0e8',
  },
  otto: {
    name: 'otto',
    skin: '#e9bf9b',
    skinShade: '#cf9b77',
    lip: '#a8645e',
    hair: '#c9c6c2',
    hairShade: '#9d9995',
    hairStyle: 'receding',
    iris: '#5a4632',
    brow: '#a9a49e',
    faceHalfWidth: 82,
    chinY: 350,
    outfit: 'tweed',
    cloth: '#7b5b3a',
    clothShade: '#5c4228',
    shirt: '#dbe7f3',
    accent: '#8b1e3f',
    glasses: '#6b4a2a',
    beard: '#d4d1cd',
    lashes: false,
    panelTop: '#a78bfa',
    panelBottom: '#3b1d7a',
    panelGlow: '#ece4ff',
  },
};
