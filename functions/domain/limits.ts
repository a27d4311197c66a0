/** A video bot's recording, bytes: the largest a preparation reads, so also the largest video upload. */
const MAX_RECORDING_BYTES = 300 * 1024 * 1024;

/** Every limit the API enforces, in one place: the validator, the OpenAPI document and the docs read these. */
export const limits = {
  /** Largest request body accepted, in bytes (413 above it). */
  maxBodyBytes: 256 * 1024,
  /** Clips in one create request. */
  maxClips: 10,
  /** Characters of text in one clip (about two minutes of speech). */
  maxTextChars: 2000,
  /**
   * Characters of a recorded clip's transcript (its text with audio_url or audio_upload): ten minutes of speech at
   * a fast 200 words a minute are 2,000 words, about 12,000 characters. The alignment refuses a recording more than
   * 2.5 times as long as espeak-ng's reading of its transcript (2,000 characters: about 102 s), so a transcript held
   * to maxTextChars could never align a recording over about 256 s.
   */
  maxRecordedTranscriptChars: 12_000,
  /** Characters of text across the synthesised clips of one video. */
  maxTotalTextChars: 10000,
  /**
   * Characters of the recordings' transcripts across one video: its 1,800 s (maxVideoSeconds) at the pace that
   * sized maxRecordedTranscriptChars for 600 s. It also bounds the video's record: ten transcripts of 12,000
   * characters of 3 bytes (Vietnamese letters are Latin), with every other field at its limit, measure 442,729 bytes,
   * over DynamoDB's 400 KB item limit; within this bound the worst case is 227,563 (docs/your-voice.md).
   */
  maxTotalTranscriptChars: 36_000,
  /**
   * A video's record as created, in bytes of its JSON (about what DynamoDB counts, a little more): DynamoDB holds at
   * most 400 KB an item, and the record grows after create (clip results, up to 12 webhook delivery attempts). Fields
   * each within their own limit (image overlays' 2,048-character URLs, a logo on every clip, transcripts) can add
   * up past it: such a request is a 400 at `clips`, never a failed write.
   */
  maxVideoRecordBytes: 300 * 1024,
  maxClipNameChars: 100,
  /** Overlays (text and images) on one clip. */
  maxOverlays: 10,
  /**
   * A text overlay's characters and lines (a line break in the text starts a line; long lines are wrapped to
   * the frame, and the font shrinks to keep within these lines): a title is a headline, a lower third a name
   * and a role, a caption box a sentence or two.
   */
  overlayText: {
    title: { maxChars: 80, maxLines: 2 },
    lower_third: { maxChars: 120, maxLines: 2 },
    caption_box: { maxChars: 240, maxLines: 4 },
  },
  /** An overlay's start and end are seconds from its clip's start, at most this (a clip's speech is shorter). */
  maxOverlaySeconds: 600,
  maxUrlChars: 2048,
  /** Background videos larger than this are refused while downloading. */
  maxBackgroundBytes: 200 * 1024 * 1024,
  /** A background download that takes longer than this fails the clip. */
  backgroundTimeoutMs: 30_000,
  /**
   * Waiting on a stranger's server holds a render or assembly environment that other accounts share: every media
   * download (background, music, logo, image overlay, a bot's image_url) must connect within this, answer its
   * first byte within mediaFirstByteMs, and then keep at least mediaMinBytesPerSecond over every
   * mediaRateWindowMs, or fail at once as a timeout of its field.
   */
  mediaConnectMs: 3_000,
  mediaFirstByteMs: 5_000,
  mediaMinBytesPerSecond: 64 * 1024,
  mediaRateWindowMs: 5_000,
  /** A video's music file larger than this is refused while downloading (as a background). */
  maxMusicBytes: 200 * 1024 * 1024,
  /** A music download that takes longer than this fails the video. */
  musicTimeoutMs: 30_000,
  /** A background whose picture is wider or taller than this (as declared, before decoding) is refused. */
  maxBackgroundSide: 8192,
  /** ... or whose picture has more pixels than this (8192x4320, "8K"); also the decoder's own per-frame limit. */
  maxBackgroundPixels: 8192 * 4320,
  /** ... or whose declared frame rate is above this. */
  maxBackgroundFps: 240,
  /**
   * Pixels one clip's pictures may declare in all (its background's frame, its logo, its overlays' images), as
   * their headers say: each is decoded once, one at a time, and scaled to the box it is drawn in before the render,
   * so this bounds a clip's decoding work; its memory is bounded by the largest single picture. Ten 4K photos
   * (3840x2160) fit; ten 8000x4000 overlays (320 million) do not.
   */
  maxClipPicturePixels: 100_000_000,
  /** A logo's (and an image overlay's) width: this share of the frame's width, at least and at most. */
  minImageLayerSize: 0.05,
  maxImageLayerSize: 0.3,
  /** A logo or an overlay's image is refused while downloading above this size (its pixels: the backgrounds' limits). */
  maxImageLayerBytes: 10 * 1024 * 1024,
  /** A logo or an overlay's image that takes longer than this to download fails the clip. */
  imageLayerTimeoutMs: 20_000,
  /**
   * Every media run has a time budget: this much, plus renderBudgetPerSecond for every second of media it
   * produces. A run over budget, or one that makes no progress for mediaStallSeconds, is killed, and its clip
   * fails for good (a background that slow would be as slow on every retry).
   */
  renderBudgetBaseSeconds: 60,
  /**
   * A clip's speech may last this long. Text is bounded in characters, but some text is far longer spoken than
   * read (numbers: 2,000 characters of them speak for almost four minutes); a longer clip is refused after
   * synthesis, so that a clip's render budget and its inputs always fit in the render function's time.
   */
  maxSpeechSeconds: 180,
  /**
   * A clip's recording (audio_url, audio_upload) may last this long: a caller's talk is often longer than a
   * synthesised clip, and a 10-minute recorded clip renders within the render function's 15 minutes
   * (docs/your-voice.md#long-recordings).
   */
  maxRecordedSpeechSeconds: 600,
  /**
   * A video's clips may last this long together (their speech and its edges): the assembly is sized for 30 minutes
   * (about 350 MB of 1080p), and 10 clips of 600-s recordings would make 100. A longer video fails at assembly as
   * `video_too_long`, before anything is joined.
   */
  maxVideoSeconds: 1800,
  /**
   * A clip's text as said — the account's lexicon applied, markup removed — is at most this many characters (Polly
   * bills at most 3,000 a request; espeak-ng fails on far longer): a lexicon cannot multiply what a clip says.
   */
  maxSpokenChars: 3000,
  /** Polly's own ceiling on a request's text, markup included. */
  maxPollyRequestChars: 6000,
  renderBudgetPerSecond: 4,
  mediaStallSeconds: 30,
  /** Page size bounds of list operations. */
  maxPageSize: 100,
  defaultPageSize: 20,
  /** How long an Idempotency-Key is remembered. */
  idempotencyTtlSeconds: 24 * 60 * 60,
  /** A video not finished by then is failed by the sweeper. */
  videoDeadlineSeconds: 60 * 60,
  /**
   * Videos one account may have queued, rendering or assembling at once, unless its account record says
   * otherwise (`npm run keys -- limit`): one account must not fill the render queue for everyone else.
   */
  defaultMaxVideosInProgress: 20,
  /** Highest per-account limit the keys CLI sets: far above any sane need, so a typo cannot remove the limit. */
  maxVideosInProgressCeiling: 10_000,
  /** Retry-After of a create refused for too many videos in progress: about what a short video takes to render. */
  videosInProgressRetryAfterSeconds: 30,
  /** A bot's image (a photo or a drawn layer), uploaded or fetched from image_url. */
  maxBotImageBytes: 10 * 1024 * 1024,
  /** ... at most this many pixels and this many a side, as its header declares: refused before decoding. */
  maxBotImagePixels: 40_000_000,
  maxBotImageSide: 12_000,
  /** A drawn bot's image (a PNG layer) is this many to this many px a side. */
  minDrawnImageSide: 64,
  maxDrawnImageSide: 4096,
  /**
   * Largest PUT /v1/bot/{uid} body. What really reaches the function on AWS: Lambda takes at most 6 MB of
   * invocation payload, and API Gateway passes a binary body base64-encoded (4 bytes for 3) inside the event with
   * its headers, so about 4.4 MB of upload is the ceiling. Larger images go by image_url (maxBotImageBytes).
   */
  maxBotBodyBytes: 4_400_000,
  /** Time libvips may spend decoding a bot's image: far beyond the largest allowed picture (about 1.5 s here). */
  botImageDecodeSeconds: 10,
  /** Time to download a bot's image_url. */
  botImageTimeoutMs: 30_000,
  maxBotNameChars: 100,
  /**
   * Bots one account may have preparing at once: a preparation decodes a caller's image and runs two models, so an
   * account's uploads must not fill the prepare function for everyone else.
   */
  maxBotsPreparing: 3,
  /** Retry-After of a PUT refused for too many bots preparing: about what a preparation takes. */
  botsPreparingRetryAfterSeconds: 15,
  maxBotDescriptionChars: 500,
  /** A video bot's recording (docs/video-bots.md): its size, fetched from video_url or sent as a file. */
  maxRecordingBytes: MAX_RECORDING_BYTES,
  /** ... and its length, seconds: enough listening and speaking to learn from, and a preparation within its Lambda. */
  minRecordingSeconds: 10,
  maxRecordingSeconds: 300,
  /**
   * ... and its picture's sides, px: a camera's 4K either way round. It is prepared at 1080p at most; a picture far
   * larger (8000x8000 in a small file) took the decode's whole time and memory and failed without a name.
   */
  maxRecordingSides: { long: 3840, short: 2160 },
  /** Time to download a video bot's video_url. */
  botVideoTimeoutMs: 120_000,
  /** The one decode of a recording with its landmarks, seconds: a 5-minute recording within the prepare Lambda's 15 minutes. */
  footagePrepareBudgetSeconds: 780,
  /** A template's name, and how many variables its placeholders may name. */
  maxTemplateNameChars: 100,
  maxTemplateVariables: 50,
  /** One variable's value (a template video's, a batch row's cell). */
  maxVariableChars: 500,
  /** Rows of one batch (POST /v1/templates/{uid}/batches), and the largest CSV of them. */
  maxBatchRows: 1000,
  maxBatchCsvBytes: 2 * 1024 * 1024,
  /**
   * The largest batch request body: the CSV (or JSON rows) with room for the form's other fields. Under what a
   * Lambda invocation carries (6 MB, the body base64-encoded by API Gateway).
   */
  maxBatchBodyBytes: 2 * 1024 * 1024 + 64 * 1024,
  /** Problems one refused batch names (the first ones, by row): enough to fix a file, not a megabyte of errors. */
  maxBatchProblems: 100,
  /** Seconds between two looks of the batch worker at a running batch (release rows, count settled ones). */
  batchTickSeconds: 2,
  /**
   * Batches one account may have queued or running at once: each keeps a chain of looks going on the batch queue,
   * so an account's batches must not fill the batch worker for everyone else (its rows wait for its room anyway).
   */
  maxBatchesInProgress: 5,
  /** Retry-After of a batch refused for too many running: about what a small batch takes. */
  batchesInProgressRetryAfterSeconds: 60,
  /** Rows of one batch in flight at once, whatever the account's limit: bounds the worker's reads per look. */
  maxBatchRowsInFlight: 100,
  /**
   * The largest upload (POST /v1/uploads) of each kind, in bytes: a recording of at most 10 minutes; footage no
   * larger than a video bot's preparation takes (anything larger was stored and read only to be refused).
   */
  maxUploadBytes: { audio: 100 * 1024 * 1024, video: MAX_RECORDING_BYTES },
  /** A clip's recording (audio_url) that takes longer than this to download fails the clip. */
  recordingTimeoutMs: 60_000,
  /** An upload may be named for this long after it was asked for; the bucket's lifecycle rule removes the file. */
  uploadLifetimeSeconds: 24 * 3600,
  /**
   * Uploads of one account asked for and neither used nor expired: each may hold up to 500 MB in the bucket for days,
   * and the API's rate alone would let one key reserve terabytes a day.
   */
  maxPendingUploads: 20,
  /** What a refused upload is told to wait: the oldest pending one may have up to a day left. */
  pendingUploadsRetryAfterSeconds: 3600,
} as const;
