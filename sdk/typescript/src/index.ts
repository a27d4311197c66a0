/**
 * The vidbot SDK: `new Vidbot({ baseUrl, apiKey })`, its typed transport (`vidbot.api`, every operation of the
 * OpenAPI document), `verifyWebhook`, and the errors every call may throw. Runs in Node 20+ and in browsers.
 */
export type { VidbotApi, VidbotOptions } from './client.ts';
export { type FieldProblem, VidbotError, VideoFailedError, WaitTimeoutError } from './errors.ts';
export type { components, operations, paths } from './generated/openapi.ts';
export type { RetryOptions } from './retry.ts';
export type * from './types.ts';
export type { UploadedFile, UploadInput } from './uploads.ts';
export { type BatchInput, type CreateOptions, Vidbot, type WaitForVideoOptions } from './vidbot.ts';
export type { WaitOptions } from './wait.ts';
export { isVideoEvent, verifyWebhook, type WebhookEvent, WebhookSignatureError } from './webhooks.ts';
