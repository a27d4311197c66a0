import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PreparedLook } from '#functions/prepare/look.ts';

/**
 * A built-in look (functions/render/bots/<look>/) as the look builders produce one: a genuine sprite set the
 * renderer draws, standing in for the photo and drawn pipelines where a test needs a real look.
 */
export function builtInLookAsPrepared(look = 'ava'): PreparedLook {
  const dir = resolve(import.meta.dirname, '..', '..', 'functions', 'render', 'bots', look);
  const files = new Map(
    readdirSync(dir)
      .filter((f) => /\.(png|json)$/.test(f))
      .map((f) => [f, readFileSync(join(dir, f))] as const),
  );
  return { manifest: JSON.parse(files.get('manifest.json')!.toString('utf8')), files };
}
