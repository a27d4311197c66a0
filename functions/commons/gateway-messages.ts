/**
 * Words the API says both from a function and from the gateway itself (API Gateway's gateway responses, the
 * local gateway): one text, read by functions/commons/errors.ts and by the wiring (infra/wiring.ts
 * `api.gatewayResponses`). Imports nothing.
 */
export const KEY_REQUIRED = 'A valid API key is required: send "Authorization: Bearer <API_KEY>".';
export const WWW_AUTHENTICATE = 'Bearer realm="vidbot"';
