/** A file's type as the API takes it (`POST /v1/uploads`): the bare media type, without the codecs a MediaRecorder appends. */
export const mediaType = (file: Blob) => file.type.split(';')[0]!.trim().toLowerCase();
