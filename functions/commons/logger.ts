import { Logger } from '@aws-lambda-powertools/logger';

/** The one structured JSON logger. Handlers append request ids and domain keys (video_id, clip_index). */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'vidbot' });
