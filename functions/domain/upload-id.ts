/**
 * An upload's id as callers write it: `upl_` and 16 base64url characters (api-keys.ts newId). Its own module so that
 * a clip's schema can check an id without importing the uploads' rules (which import the fair-use limits).
 */
export const UPLOAD_ID = /^upl_[A-Za-z0-9_-]{16}$/;
