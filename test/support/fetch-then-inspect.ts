/**
 * A picture as a clip gets it: downloaded by the fetch stage's rules (functions/media/remote-media.ts, through
 * fetchMediaToFile), then inspected by the render (render/image.ts, render/background.ts). For tests that serve real
 * files and check the failures both steps give.
 */
import type { Mode } from '#commons/config';
import type { PictureBudget } from '#domain/picture-budget';
import type { BackgroundMedia } from '#functions/media/background-media.ts';
import { fetchMediaToFile } from '#functions/media/fetch-media.ts';
import type { ImageMedia, PictureFit } from '#functions/media/image-media.ts';
import { backgroundRules, type ImageSubject, imageRules } from '#functions/media/remote-media.ts';
import { inspectBackgroundFile } from '#functions/render/background.ts';
import { inspectImageFile } from '#functions/render/image.ts';

export async function fetchImage(
  url: string,
  path: string,
  mode: Mode,
  subject: ImageSubject,
  fit?: PictureFit,
  budget?: PictureBudget,
): Promise<ImageMedia> {
  await fetchMediaToFile(url, path, { ...imageRules(subject), mode });
  return inspectImageFile(path, subject, fit, budget);
}

export async function fetchBackground(url: string, path: string, workDir: string, mode: Mode, budget?: PictureBudget): Promise<BackgroundMedia> {
  await fetchMediaToFile(url, path, { ...backgroundRules, mode });
  return inspectBackgroundFile(path, workDir, budget);
}
