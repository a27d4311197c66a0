import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './metric-names.ts';

/**
 * The one structured JSON logger. Every invocation adds the Lambda context (functions/commons/invocation.ts);
 * handlers append request ids and domain keys (video_id, clip_index).
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME });
