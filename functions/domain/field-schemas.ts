/** Schemas of single fields that several requests share (a clip's, a bot's, an overlay's). */
import { z } from 'zod';
import './zod-messages.ts';
import { BOT_POSITIONS } from './choices.ts';
import { limits } from './limits.ts';

const normaliseWord = (value: string) => value.trim().toLowerCase().replace(/_/g, '-');

export const positionSchema = z
  .string()
  .transform(normaliseWord)
  .pipe(z.enum(BOT_POSITIONS, { error: () => `must be one of ${BOT_POSITIONS.join(', ')}` }));

export const httpUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(limits.maxUrlChars)
  .superRefine((value, ctx) => {
    try {
      const url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL' });
      else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not carry credentials' });
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
    }
  });
