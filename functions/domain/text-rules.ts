/**
 * What text a caller gives (a clip's words, an overlay's text, a template's value) may hold: any script, line
 * breaks and tabs, but no other control character. A NUL ends the text for the subtitle renderer (libass reads its
 * script as a C string: every caption and overlay after it would vanish), and the others draw nothing or garble.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
export const HIDDEN_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

export const CONTROL_MESSAGE = 'must not hold control characters (only line breaks and tabs)';
