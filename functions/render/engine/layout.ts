/** Where the bot goes in the frame and how big it is. */
import type { BotPosition } from '#domain/clip';
import { FRAME } from './types.ts';

/** Gap between the bot's canvas (which carries a soft shadow margin) and the frame edge, px. */
export const MARGIN = 24;

export interface BotPlacement {
  x: number;
  y: number;
  /** Height of the bot's canvas (panel with its shadow margin); the width follows from the artwork. */
  height: number;
}

/** The bot's canvas height for a position: ~46% of the frame at the edges, ~64% in the centre. */
export const botHeightFor = (position: BotPosition): number => (position === 'center' ? 460 : 332);

export function placeBot(position: BotPosition, width: number, height: number): BotPlacement {
  const [vertical, horizontal] = position === 'center' ? ['center', 'center'] : (position.split('-') as [string, string]);
  const x = horizontal === 'left' ? MARGIN : horizontal === 'right' ? FRAME.width - width - MARGIN : Math.round((FRAME.width - width) / 2);
  const y = vertical === 'top' ? MARGIN : vertical === 'bottom' ? FRAME.height - height - MARGIN : Math.round((FRAME.height - height) / 2);
  return { x, y, height };
}
