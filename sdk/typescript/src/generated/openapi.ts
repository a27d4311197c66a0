/**
 * Generated from the vidbot OpenAPI document by openapi-typescript: do not edit. Regenerate with
 * `npm run sdk:generate` (a test fails when this file differs from what the document gives).
 */

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console (an HTML page; it asks for your key) */
        get: operations["console"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listBatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A batch: its status, counts by outcome, and a page of its rows' videos (`videos`, paged by limit and cursor) */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        /** Cancel the rows not yet released; those rendering finish. batch.completed follows with status cancelled */
        delete: operations["cancelBatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List all bots */
        get: operations["listBots"];
        put?: never;
        /** Create a video (or the voice only) from clips */
        post: operations["createVideo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bot/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** List all bots (the interface's form: POST with a trailing slash) */
        post: operations["listBotsPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bot/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getBot"];
        /** Create or replace a bot of your account from a photo, drawn images or a recording; it is prepared asynchronously */
        put: operations["putBot"];
        post?: never;
        delete: operations["deleteBot"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bot/{uid}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a settled bot's event (bot.ready or bot.failed) to its webhook again, as a new chain of attempts */
        post: operations["redeliverBotWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clips": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listKeptClips"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/create_video": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a video (or the voice only) from clips */
        post: operations["createVideoAlias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your webhook inbox's verified events, newest first, and its inbox_url */
        get: operations["listInboxEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inbox/{account}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A webhook delivery into the account's inbox: kept 7 days if its Standard Webhooks signature verifies with one of the account's secrets, else 401 invalid_signature and nothing is stored */
        post: operations["receiveInboxEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lexicon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getLexicon"];
        /** Replace your lexicon: words (whole words, any case) and how every voice says them; captions show the word as written */
        put: operations["putLexicon"];
        post?: never;
        delete: operations["deleteLexicon"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["openApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTemplate"];
        /** Create or replace a template: a create request (no webhook) whose clips' text fields may hold {{name}} or {{name|default}} */
        put: operations["putTemplate"];
        post?: never;
        delete: operations["deleteTemplate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates/{uid}/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One video per row of data (at most 1000): every row is checked first, and one bad row refuses the batch (400 naming rows[i].field) with nothing made */
        post: operations["createBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates/{uid}/videos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a video from a template with the values of its variables: answered as POST /v1/bot */
        post: operations["createVideoFromTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask to upload a file (a recording for audio_upload, footage for video_upload): answers an upload_id and a presigned upload_url to PUT exactly the declared content type and size to; the id is yours alone, serves one request and expires after a day */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw an upload not used yet: no request may name it after, its file (if PUT) is deleted, and it counts against your pending uploads only until its upload_url expires; 409 upload_in_use once a request has taken it */
        delete: operations["withdrawUpload"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listVideos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getVideo"];
        put?: never;
        post?: never;
        delete: operations["deleteVideo"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["downloadVideo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/voices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every voice this deployment speaks (espeak-ng's; Amazon Polly's too on AWS); a clip names one with `voice` */
        get: operations["listVoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "video.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A video is ready to download */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VideoEvent"];
                };
            };
            responses: {
                /** @description Received (any 2xx) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "video.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A video could not be made */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VideoEvent"];
                };
            };
            responses: {
                /** @description Received (any 2xx) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Batch: {
            batch_id: string;
            cancel_requested?: boolean;
            completed_at: string | null;
            counts: {
                cancelled: number;
                completed: number;
                failed: number;
                in_progress: number;
                pending: number;
            };
            created_at: string;
            next_cursor?: string | null;
            notify_each?: boolean;
            rows: number;
            status: string;
            template_name: string;
            template_uid: string;
            /** @description Sent with a test key: its rows make test videos. */
            test: boolean;
            updated_at?: string;
            url: string;
            /** @description GET /v1/batches/{id} only: a page of its rows and their videos. */
            videos?: Record<string, never>[];
            webhook?: {
                attempts: {
                    at: string;
                    attempt: number;
                    duration_ms: number;
                    error: string | null;
                    status_code: number | null;
                }[];
                state: string;
                url: string;
            };
        };
        BatchDryRun: {
            /** @constant */
            dry_run: true;
            /** @description The first row's create request, its placeholders filled. */
            first_row: Record<string, never>;
            rows: number;
            template_uid: string;
        };
        CreatedBatch: {
            batch_id: string;
            rows: number;
            status: string;
            url: string;
        };
        CreatedVideo: {
            /** @description How many clips the video has. */
            clips: number;
            create_video: boolean;
            created_at: string;
            /** @enum {string} */
            status: "queued" | "rendering" | "assembling" | "completed" | "failed";
            /** @description Made with a test key: 360p, marked TEST, at most 60 s, outside the live account's limits and usage. */
            test: boolean;
            /** @description GET it for the status. */
            url: string;
            video_id: string;
        };
        /** @description Create a video */
        CreateVideoRequest: {
            /**
             * @description The video's shape: 16:9 (landscape), 9:16 (vertical) or 1:1 (square). Every clip is rendered in it; a kept clip (clip_uid) must have been made in it.
             * @default 16:9
             * @enum {string}
             */
            aspect_ratio?: "16:9" | "9:16" | "1:1";
            /**
             * @description burn: the captions are also drawn into the picture. Either way the finished video links its captions as WebVTT and SRT (output.captions).
             * @default none
             * @enum {string}
             */
            captions?: "none" | "burn";
            /** @description The clips, 1 to 10. Positions: top-left, top-center, top-right, center-left, center, center-right, bottom-left, bottom-center, bottom-right. Bot sizes: small, medium, large, full. Transitions: fade_in, slide_in_left, slide_in_right, slide_in_up, wipe_in, zoom_in, fade_out, slide_out_left, slide_out_right, slide_out_down, wipe_out, zoom_out. Defaults: {"remove_bot_background":false,"background_volume":0.2,"transitions":"","reusable_clip":false,"bot_size":"full when the clip gives no background, bot_size or bot_position and its bot is not a video bot; else medium","bot_position":"the bot's default_position"}. */
            clips: string | ({
                /** @description The upload_id of a recording uploaded with POST /v1/uploads (an audio/* content type), instead of audio_url. */
                audio_upload?: string;
                /** @description A recording the bot speaks instead of a synthesised voice: WAV, MP3, M4A/AAC, Ogg/Opus, WebM or FLAC, at most 600 s. Fetched like a background. */
                audio_url?: string;
                background?: string | "";
                /** @description Gain of the background video's own audio under the voice, 0 (silent) to 1 (as recorded). */
                background_volume?: number | string;
                /** @description One of top-left, top-center, top-right, center-left, center, center-right, bottom-left, bottom-center, bottom-right (underscores and any case accepted). Default: the bot's default_position (bottom-center at the full size a clip without background, bot_size or bot_position gets). */
                bot_position?: string;
                /**
                 * @description How big the presenter is; any letter case. small, medium and large keep bot_position's meaning; full makes the presenter the subject: a head-and-shoulders shot in every shape, its eyes 38 % down the frame and the person about 90 % of its height, standing on the bottom edge (its shoulders cut by the sides of a vertical frame), its card carried to the frame's edges unless a background is given, and only bot_position's left/center/right counts. Default: full when the clip gives no background, bot_size or bot_position and its bot is not a video bot; else medium.
                 * @default full when the clip gives no background, bot_size or bot_position and its bot is not a video bot; else medium
                 * @enum {string}
                 */
                bot_size?: "small" | "medium" | "large" | "full";
                bot_uid: string;
                clip_name?: string;
                /**
                 * @description A video bot only: `as_recorded` plays its recording from its start, in order, with the mouth redone for the text (the speech may last at most as long as the recording); `loop` (the default) plays its base footage for as long as the speech.
                 * @enum {string}
                 */
                footage?: "loop" | "as_recorded";
                /** @description Text and images over the clip's picture, each from start to end (seconds from the clip's start), at most 10. {"type": "text", "text", "style": title | lower_third | caption_box, "start", "end", "position"} or {"type": "image", "url", "start", "end", "position", "size", "opacity"}. */
                overlays?: ({
                    /** @description When it goes, in seconds from the clip's start; past the clip's end it is cut to it. Default: the clip's end. */
                    end?: number;
                    /** @description Where it goes: title center, lower_third bottom-left, caption_box bottom-center by default. Never under the presenter or the burned captions: moved to the nearest free place. */
                    position?: string;
                    /**
                     * @description When the overlay appears, in seconds from the clip's start. Default 0.
                     * @default 0
                     */
                    start?: number;
                    /** @enum {string} */
                    style: "title" | "lower_third" | "caption_box";
                    /** @description What is shown, exactly as written (no markup is read), in any script. A line break starts a line. At most 80 characters and 2 lines for title, 120 characters and 2 lines for lower_third, 240 characters and 4 lines for caption_box. */
                    text: string;
                    /** @constant */
                    type: "text";
                } | {
                    /** @description When it goes, in seconds from the clip's start; past the clip's end it is cut to it. Default: the clip's end. */
                    end?: number;
                    /**
                     * @description 0 (invisible) to 1 (opaque). Default 1.
                     * @default 1
                     */
                    opacity?: number;
                    /** @description Where it goes. Default top-left. */
                    position?: string;
                    /**
                     * @description Its width as a share of the frame's width, 0.05 to 0.3. Default 0.15.
                     * @default 0.15
                     */
                    size?: number;
                    /**
                     * @description When the overlay appears, in seconds from the clip's start. Default 0.
                     * @default 0
                     */
                    start?: number;
                    /** @constant */
                    type: "image";
                    /** @description A PNG (its transparency is kept), JPEG or WebP still, fetched when the clip renders, at most 10 MiB (as the logo). */
                    url: string;
                })[];
                remove_bot_background?: boolean | ("0" | "1" | "true" | "false" | "TRUE" | "FALSE" | "True" | "False") | (1 | 0);
                reusable_clip?: boolean | ("0" | "1" | "true" | "false" | "TRUE" | "FALSE" | "True" | "False") | (1 | 0);
                /** @description What the bot says, at most 2000 characters (markup included); required without a recording. With audio_url or audio_upload, what the recording says (its transcript: plain words, no markup), at most 12000 characters, aligned to it for the captions and the mouth. */
                text?: string;
                /** @description Space-separated: at most one entry (fade_in, slide_in_left, slide_in_right, slide_in_up, wipe_in, zoom_in) and one exit (fade_out, slide_out_left, slide_out_right, slide_out_down, wipe_out, zoom_out); hyphens accepted. */
                transitions?: string | string[];
                /** @description A voice id from GET /v1/voices (e.g. "espeak:es+f3", "polly:Lucia" where the deployment uses Polly). Default: the bot's voice. */
                voice?: string;
            } | {
                clip_name?: string;
                clip_uid: string;
            })[];
            /**
             * @description true: a video; false: the voice only (MP3).
             * @default true
             */
            create_video?: boolean | ("0" | "1" | "true" | "false" | "TRUE" | "FALSE" | "True" | "False") | (1 | 0);
            /** @description An image drawn on every frame of every clip, over the presenter. Defaults: {"position":"top-right","size":0.12,"opacity":1}. */
            logo?: {
                /**
                 * @description 0 (invisible) to 1 (the image as it is).
                 * @default 1
                 */
                opacity?: number;
                /**
                 * @description Where it is drawn, a safe margin in from the frame's edges (underscores and any case accepted).
                 * @default top-right
                 * @enum {string}
                 */
                position?: "top-left" | "top-center" | "top-right" | "center-left" | "center" | "center-right" | "bottom-left" | "bottom-center" | "bottom-right";
                /**
                 * @description The logo's width as a share of the frame's longer side (its width in 16:9 and 1:1, its height in 9:16; its height follows the image's proportions).
                 * @default 0.12
                 */
                size?: number;
                /** @description The image: PNG (its transparency is kept), JPEG or WebP; a still, not animated. Fetched like a background, at most 10 MiB. */
                url: string;
            } | string;
            /** @description Music under the whole video: {"url": "https://…"} (an audio file, or a video whose sound is used) or {"preset": "calm"}, with "volume" 0-1 (default 0.25). Looped to the video's length, faded in and out, ducked under the speech. In a form body, the object as a JSON string. */
            music?: {
                /**
                 * @description A bed the service makes itself.
                 * @enum {string}
                 */
                preset?: "calm" | "upbeat" | "ambient";
                /** @description An audio file (MP3, AAC/M4A, WAV, Ogg Vorbis/Opus) or a video file whose sound is used (MP4/MOV, WebM/MKV). */
                url?: string;
                /**
                 * @description The music's gain in the pauses, 0 (silent) to 1 (as recorded); under speech it is ducked 18 dB lower.
                 * @default 0.25
                 */
                volume?: number | string;
            } | string | {
                /**
                 * @description A bed the service makes itself.
                 * @enum {string}
                 */
                preset?: "calm" | "upbeat" | "ambient";
                /** @description An audio file (MP3, AAC/M4A, WAV, Ogg Vorbis/Opus) or a video file whose sound is used (MP4/MOV, WebM/MKV). */
                url?: string;
                /**
                 * @description The music's gain in the pauses, 0 (silent) to 1 (as recorded); under speech it is ducked 18 dB lower.
                 * @default 0.25
                 */
                volume?: number | string;
            };
            /** @description Alias of webhook (the public client's name). */
            process_done_webhook?: string;
            /**
             * @description The frame's shorter side: 720p (1280x720, 720x1280, 720x720) or 1080p (1920x1080, 1080x1920, 1080x1080).
             * @default 720p
             * @enum {string}
             */
            resolution?: "720p" | "1080p";
            /** @description The video's font and colours, for its text overlays and its burned captions. Defaults: {"font":"inter","primary_color":"#2B59C3","text_color":"#FFFFFF"}. */
            theme?: {
                /**
                 * @description Any letter case.
                 * @enum {string}
                 */
                font?: "inter" | "montserrat" | "merriweather";
                primary_color?: string;
                text_color?: string;
            };
            /** @description Address notified when the video is ready. A scheme-less address is read as https://. */
            webhook: string;
        };
        Error: {
            error: {
                code: string;
                details?: {
                    message?: string;
                    path?: string;
                }[];
                message: string;
            };
        };
        LexiconRequest: {
            /** @description At most 500: each a word (at most 50 characters) and how to say it. */
            entries: {
                say: string;
                word: string;
            }[];
        };
        /** @description Exactly one source: image, image_url, the drawn layers (mouth_closed, mouth_open, mouth_half, eyes_closed, mouth_round, mouth_wide, mouth_fv: mouth_closed and mouth_open required), or a recording (video, video_url or video_upload, with consent). An upload's whole body is at most 4400000 bytes (what API Gateway and Lambda carry); larger photos go by image_url, larger recordings by video_upload. */
        PutBotRequest: {
            /** @description Required (true) for a video bot: you state that the person filmed agreed to be made into a bot. The record keeps when and by which key. */
            consent?: boolean;
            /** @enum {string} */
            default_position?: "top-left" | "top-center" | "top-right" | "center-left" | "center" | "center-right" | "bottom-left" | "bottom-center" | "bottom-right";
            description?: string;
            /** @description A drawn layer: PNG with alpha, 64 to 4096 px a side. */
            eyes_closed?: string;
            /** @description A photo: JPEG, PNG or WebP. */
            image?: string;
            /** @description A photo (JPEG, PNG or WebP, at most 10 MB), fetched through the address guard. */
            image_url?: string;
            /** @description A drawn layer: PNG with alpha, 64 to 4096 px a side. The face with its mouth closed; every other layer is its size. */
            mouth_closed?: string;
            /** @description Optional drawn mouth shape: the lower lip to the upper teeth (f, v), drawn at its most open; PNG with alpha, 64 to 4096 px a side. The look gets its frames (fv). */
            mouth_fv?: string;
            /** @description A drawn layer: PNG with alpha, 64 to 4096 px a side. */
            mouth_half?: string;
            /** @description A drawn layer: PNG with alpha, 64 to 4096 px a side. */
            mouth_open?: string;
            /** @description Optional drawn mouth shape: rounded lips ("oo", "o", "w"), drawn at its most open; PNG with alpha, 64 to 4096 px a side. The look gets its frames (r1, r2). */
            mouth_round?: string;
            /** @description Optional drawn mouth shape: lips spread wide ("ee", "eh"), drawn at its most open; PNG with alpha, 64 to 4096 px a side. The look gets its frames (w1, w2). */
            mouth_wide?: string;
            /** @description Required. */
            name: string;
            /** @description A recording for a video bot: MP4, MOV or WebM within the body limit (larger ones go by video_upload). Needs consent. */
            video?: string;
            /** @description A recording uploaded with POST /v1/uploads (content_type video/*) for a video bot: your own upload, unused and unexpired; it serves this bot only. Needs consent. */
            video_upload?: string;
            /** @description A recording of the person (MP4, MOV or WebM, at most 300 MB) for a video bot, fetched through the address guard. Needs consent. */
            video_url?: string;
            /** @description A voice id from GET /v1/voices. Default: espeak:en-us+f5. */
            voice?: string;
            /** @description Receives a signed bot.ready or bot.failed event when the preparation settles. */
            webhook?: string;
        };
        StartedUpload: {
            content_type: string;
            /** @description After this the id names nothing. */
            expires_at: string;
            /** @enum {string} */
            kind: "audio" | "video";
            size: number;
            upload_headers: {
                [key: string]: string;
            };
            upload_id: string;
            /** @constant */
            upload_method: "PUT";
            upload_url: string;
            upload_url_expires_at: string;
        };
        /** @description A template: the text fields of its clips (text, clip_name, background, voice, bot_uid, bot_position, transitions, and the text and url of each overlay) may hold {{name}} or {{name|default}}. */
        TemplateRequest: {
            /**
             * @description The video's shape: 16:9 (landscape), 9:16 (vertical) or 1:1 (square). Every clip is rendered in it; a kept clip (clip_uid) must have been made in it.
             * @default 16:9
             * @enum {string}
             */
            aspect_ratio?: "16:9" | "9:16" | "1:1";
            /**
             * @description burn: the captions are also drawn into the picture. Either way the finished video links its captions as WebVTT and SRT (output.captions).
             * @default none
             * @enum {string}
             */
            captions?: "none" | "burn";
            /** @description The clips, 1 to 10. Positions: top-left, top-center, top-right, center-left, center, center-right, bottom-left, bottom-center, bottom-right. Bot sizes: small, medium, large, full. Transitions: fade_in, slide_in_left, slide_in_right, slide_in_up, wipe_in, zoom_in, fade_out, slide_out_left, slide_out_right, slide_out_down, wipe_out, zoom_out. Defaults: {"remove_bot_background":false,"background_volume":0.2,"transitions":"","reusable_clip":false,"bot_size":"full when the clip gives no background, bot_size or bot_position and its bot is not a video bot; else medium","bot_position":"the bot's default_position"}. */
            clips: string | ({
                /** @description The upload_id of a recording uploaded with POST /v1/uploads (an audio/* content type), instead of audio_url. */
                audio_upload?: string;
                /** @description A recording the bot speaks instead of a synthesised voice: WAV, MP3, M4A/AAC, Ogg/Opus, WebM or FLAC, at most 600 s. Fetched like a background. */
                audio_url?: string;
                background?: string | "";
                /** @description Gain of the background video's own audio under the voice, 0 (silent) to 1 (as recorded). */
                background_volume?: number | string;
                /** @description One of top-left, top-center, top-right, center-left, center, center-right, bottom-left, bottom-center, bottom-right (underscores and any case accepted). Default: the bot's default_position (bottom-center at the full size a clip without background, bot_size or bot_position gets). */
                bot_position?: string;
                /**
                 * @description How big the presenter is; any letter case. small, medium and large keep bot_position's meaning; full makes the presenter the subject: a head-and-shoulders shot in every shape, its eyes 38 % down the frame and the person about 90 % of its height, standing on the bottom edge (its shoulders cut by the sides of a vertical frame), its card carried to the frame's edges unless a background is given, and only bot_position's left/center/right counts. Default: full when the clip gives no background, bot_size or bot_position and its bot is not a video bot; else medium.
                 * @default full when the clip gives no background, bot_size or bot_position and its bot is not a video bot; else medium
                 * @enum {string}
                 */
                bot_size?: "small" | "medium" | "large" | "full";
                bot_uid: string;
                clip_name?: string;
                /**
                 * @description A video bot only: `as_recorded` plays its recording from its start, in order, with the mouth redone for the text (the speech may last at most as long as the recording); `loop` (the default) plays its base footage for as long as the speech.
                 * @enum {string}
                 */
                footage?: "loop" | "as_recorded";
                /** @description Text and images over the clip's picture, each from start to end (seconds from the clip's start), at most 10. {"type": "text", "text", "style": title | lower_third | caption_box, "start", "end", "position"} or {"type": "image", "url", "start", "end", "position", "size", "opacity"}. */
                overlays?: ({
                    /** @description When it goes, in seconds from the clip's start; past the clip's end it is cut to it. Default: the clip's end. */
                    end?: number;
                    /** @description Where it goes: title center, lower_third bottom-left, caption_box bottom-center by default. Never under the presenter or the burned captions: moved to the nearest free place. */
                    position?: string;
                    /**
                     * @description When the overlay appears, in seconds from the clip's start. Default 0.
                     * @default 0
                     */
                    start?: number;
                    /** @enum {string} */
                    style: "title" | "lower_third" | "caption_box";
                    /** @description What is shown, exactly as written (no markup is read), in any script. A line break starts a line. At most 80 characters and 2 lines for title, 120 characters and 2 lines for lower_third, 240 characters and 4 lines for caption_box. */
                    text: string;
                    /** @constant */
                    type: "text";
                } | {
                    /** @description When it goes, in seconds from the clip's start; past the clip's end it is cut to it. Default: the clip's end. */
                    end?: number;
                    /**
                     * @description 0 (invisible) to 1 (opaque). Default 1.
                     * @default 1
                     */
                    opacity?: number;
                    /** @description Where it goes. Default top-left. */
                    position?: string;
                    /**
                     * @description Its width as a share of the frame's width, 0.05 to 0.3. Default 0.15.
                     * @default 0.15
                     */
                    size?: number;
                    /**
                     * @description When the overlay appears, in seconds from the clip's start. Default 0.
                     * @default 0
                     */
                    start?: number;
                    /** @constant */
                    type: "image";
                    /** @description A PNG (its transparency is kept), JPEG or WebP still, fetched when the clip renders, at most 10 MiB (as the logo). */
                    url: string;
                })[];
                remove_bot_background?: boolean | ("0" | "1" | "true" | "false" | "TRUE" | "FALSE" | "True" | "False") | (1 | 0);
                reusable_clip?: boolean | ("0" | "1" | "true" | "false" | "TRUE" | "FALSE" | "True" | "False") | (1 | 0);
                /** @description What the bot says, at most 2000 characters (markup included); required without a recording. With audio_url or audio_upload, what the recording says (its transcript: plain words, no markup), at most 12000 characters, aligned to it for the captions and the mouth. */
                text?: string;
                /** @description Space-separated: at most one entry (fade_in, slide_in_left, slide_in_right, slide_in_up, wipe_in, zoom_in) and one exit (fade_out, slide_out_left, slide_out_right, slide_out_down, wipe_out, zoom_out); hyphens accepted. */
                transitions?: string | string[];
                /** @description A voice id from GET /v1/voices (e.g. "espeak:es+f3", "polly:Lucia" where the deployment uses Polly). Default: the bot's voice. */
                voice?: string;
            } | {
                clip_name?: string;
                clip_uid: string;
            })[];
            /**
             * @description true: a video; false: the voice only (MP3).
             * @default true
             */
            create_video?: boolean | ("0" | "1" | "true" | "false" | "TRUE" | "FALSE" | "True" | "False") | (1 | 0);
            /** @description An image drawn on every frame of every clip, over the presenter. Defaults: {"position":"top-right","size":0.12,"opacity":1}. */
            logo?: {
                /**
                 * @description 0 (invisible) to 1 (the image as it is).
                 * @default 1
                 */
                opacity?: number;
                /**
                 * @description Where it is drawn, a safe margin in from the frame's edges (underscores and any case accepted).
                 * @default top-right
                 * @enum {string}
                 */
                position?: "top-left" | "top-center" | "top-right" | "center-left" | "center" | "center-right" | "bottom-left" | "bottom-center" | "bottom-right";
                /**
                 * @description The logo's width as a share of the frame's longer side (its width in 16:9 and 1:1, its height in 9:16; its height follows the image's proportions).
                 * @default 0.12
                 */
                size?: number;
                /** @description The image: PNG (its transparency is kept), JPEG or WebP; a still, not animated. Fetched like a background, at most 10 MiB. */
                url: string;
            } | string;
            /** @description Music under the whole video: {"url": "https://…"} (an audio file, or a video whose sound is used) or {"preset": "calm"}, with "volume" 0-1 (default 0.25). Looped to the video's length, faded in and out, ducked under the speech. In a form body, the object as a JSON string. */
            music?: {
                /**
                 * @description A bed the service makes itself.
                 * @enum {string}
                 */
                preset?: "calm" | "upbeat" | "ambient";
                /** @description An audio file (MP3, AAC/M4A, WAV, Ogg Vorbis/Opus) or a video file whose sound is used (MP4/MOV, WebM/MKV). */
                url?: string;
                /**
                 * @description The music's gain in the pauses, 0 (silent) to 1 (as recorded); under speech it is ducked 18 dB lower.
                 * @default 0.25
                 */
                volume?: number | string;
            } | string | {
                /**
                 * @description A bed the service makes itself.
                 * @enum {string}
                 */
                preset?: "calm" | "upbeat" | "ambient";
                /** @description An audio file (MP3, AAC/M4A, WAV, Ogg Vorbis/Opus) or a video file whose sound is used (MP4/MOV, WebM/MKV). */
                url?: string;
                /**
                 * @description The music's gain in the pauses, 0 (silent) to 1 (as recorded); under speech it is ducked 18 dB lower.
                 * @default 0.25
                 */
                volume?: number | string;
            };
            name: string;
            /**
             * @description The frame's shorter side: 720p (1280x720, 720x1280, 720x720) or 1080p (1920x1080, 1080x1920, 1080x1080).
             * @default 720p
             * @enum {string}
             */
            resolution?: "720p" | "1080p";
            /** @description The video's font and colours, for its text overlays and its burned captions. Defaults: {"font":"inter","primary_color":"#2B59C3","text_color":"#FFFFFF"}. */
            theme?: {
                /**
                 * @description Any letter case.
                 * @enum {string}
                 */
                font?: "inter" | "montserrat" | "merriweather";
                primary_color?: string;
                text_color?: string;
            };
        };
        UploadRequest: {
            /**
             * @description The file's media type: audio/* for a recording (audio_upload), video/* for footage (video_upload).
             * @enum {string}
             */
            content_type: "audio/wav" | "audio/x-wav" | "audio/wave" | "audio/mpeg" | "audio/mp4" | "audio/x-m4a" | "audio/aac" | "audio/ogg" | "audio/opus" | "audio/webm" | "audio/flac" | "audio/x-flac" | "video/mp4" | "video/quicktime" | "video/webm";
            /** @description The file's exact size in bytes: the upload's PUT must send this Content-Length. At most 104857600 for audio, 314572800 for video. */
            size: number;
        };
        Video: {
            /** @enum {string} */
            aspect_ratio: "16:9" | "9:16" | "1:1";
            batch_id?: string;
            /** @enum {string} */
            captions: "none" | "burn";
            clips: {
                bot_uid: string;
                cached: boolean;
                clip_name: string;
                /** @description A kept clip (reusable_clip): name it in a later clip. */
                clip_uid?: string;
                duration_seconds: number | null;
                index: number;
                render_seconds: number | null;
                /** @enum {string} */
                status: "queued" | "rendering" | "rendered" | "failed" | "cancelled";
                text: string;
                voice?: string;
            }[];
            completed_at: string | null;
            create_video: boolean;
            created_at: string;
            error: null | {
                clip_index: number | null;
                code: string;
                message: string;
            };
            logo?: Record<string, never> | null;
            music?: Record<string, never> | null;
            output: null | {
                captions: null | {
                    srt_url: string;
                    vtt_url: string;
                    /** @description Every spoken word, as a JSON list of `{ "text", "start", "end", "clip" }`: the word as the clip's text writes it, its start and end in seconds from the video's start, and its clip's index. */
                    words_url?: string;
                };
                content_type: string;
                /** @description Redirects (with your key) to a fresh download link. */
                download_endpoint: string;
                download_url: string | null;
                download_url_expires_at: string | null;
                duration_seconds: number;
                /** @enum {string} */
                kind: "video" | "audio";
                size_bytes: number;
                thumbnail_url: string | null;
            };
            progress: {
                clips_rendered: number;
                clips_total: number;
            };
            /**
             * @description 360p: a test key's video.
             * @enum {string}
             */
            resolution: "720p" | "1080p" | "360p";
            row?: number;
            /** @enum {string} */
            status: "queued" | "rendering" | "assembling" | "completed" | "failed";
            /** @description Made with a test key: 360p, marked TEST, at most 60 s, outside the live account's limits and usage. */
            test?: boolean;
            theme?: Record<string, never>;
            updated_at: string;
            url: string;
            video_id: string;
            webhook: {
                attempts: {
                    at: string;
                    attempt: number;
                    duration_ms: number;
                    error: string | null;
                    status_code: number | null;
                }[];
                state: string;
                url: string;
            };
        };
        VideoEvent: {
            data: {
                /** @enum {string} */
                aspect_ratio: "16:9" | "9:16" | "1:1";
                /** @description A completed voice-only video: its presigned download link. */
                audio_url?: string;
                captions?: {
                    srt_url: string;
                    vtt_url: string;
                    /** @description Every spoken word, as a JSON list of `{ "text", "start", "end", "clip" }`: the word as the clip's text writes it, its start and end in seconds from the video's start, and its clip's index. */
                    words_url?: string;
                };
                /** @enum {string} */
                captions_mode: "none" | "burn";
                clips: {
                    bot_uid: string;
                    clip_name: string;
                    duration_seconds: number | null;
                    index: number;
                    /** @enum {string} */
                    status: "queued" | "rendering" | "rendered" | "failed" | "cancelled";
                    voice?: string;
                }[];
                create_video: boolean;
                duration_seconds?: number;
                error?: {
                    clip_index?: number;
                    code: string;
                    message: string;
                };
                /**
                 * @description 360p: a test key's video.
                 * @enum {string}
                 */
                resolution: "720p" | "1080p" | "360p";
                size_bytes?: number;
                /** @enum {string} */
                status: "completed" | "failed";
                /** @description Made with a test key: 360p, marked TEST, at most 60 s, outside the live account's limits and usage. */
                test: boolean;
                thumbnail_url?: string;
                url_expires_at?: string;
                video_id: string;
                /** @description A completed video: its presigned download link. */
                video_url?: string;
            };
            timestamp: string;
            /** @enum {string} */
            type: "video.completed" | "video.failed";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    console: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBatches: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your batches, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBatch: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancel requested: the batch */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBots: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bots */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createVideo: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateVideoRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["CreateVideoRequest"];
                "multipart/form-data": components["schemas"]["CreateVideoRequest"];
            };
        };
        responses: {
            /** @description Accepted: the render is queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedVideo"];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBotsPost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bots */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bot: built in, or one of your own */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putBot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required (true) for a video bot: you state that the person filmed agreed to be made into a bot. The record keeps when and by which key. */
                    consent?: boolean;
                    /** @enum {string} */
                    default_position?: "top-left" | "top-center" | "top-right" | "center-left" | "center" | "center-right" | "bottom-left" | "bottom-center" | "bottom-right";
                    description?: string;
                    /** @description A photo (JPEG, PNG or WebP, at most 10 MB), fetched through the address guard. */
                    image_url?: string;
                    /** @description Required. */
                    name: string;
                    /** @description A recording uploaded with POST /v1/uploads (content_type video/*) for a video bot: your own upload, unused and unexpired; it serves this bot only. Needs consent. */
                    video_upload?: string;
                    /** @description A recording of the person (MP4, MOV or WebM, at most 300 MB) for a video bot, fetched through the address guard. Needs consent. */
                    video_url?: string;
                    /** @description A voice id from GET /v1/voices. Default: espeak:en-us+f5. */
                    voice?: string;
                    /** @description Receives a signed bot.ready or bot.failed event when the preparation settles. */
                    webhook?: string;
                };
                "multipart/form-data": components["schemas"]["PutBotRequest"];
            };
        };
        responses: {
            /** @description Accepted: the bot record, status preparing */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteBot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted: the bot and its files are gone */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        uid: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverBotWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redelivery queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKeptClips: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Clips kept with reusable_clip */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createVideoAlias: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateVideoRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["CreateVideoRequest"];
                "multipart/form-data": components["schemas"]["CreateVideoRequest"];
            };
        };
        responses: {
            /** @description Accepted: the render is queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedVideo"];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInboxEvents: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveInboxEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLexicon: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your lexicon: {"entries": [{"word", "say"}], "updated_at"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putLexicon: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LexiconRequest"];
            };
        };
        responses: {
            /** @description The lexicon as stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteLexicon: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed: {"entries": [], "updated_at": null} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your templates */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template and its variables */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemplateRequest"];
            };
        };
        responses: {
            /** @description The template, with the variables its placeholders name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted: {"uid": …, "deleted": true} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBatch: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Check every row as a batch would be and make nothing: 200 {dry_run, template_uid, rows, first_row: {row, variables, clips}} with the first row's clips filled in, or the batch's 400.
                     * @default false
                     */
                    dry_run?: boolean;
                    /**
                     * @description Each video's own video.completed / video.failed goes to the webhook too.
                     * @default false
                     */
                    notify_each?: boolean;
                    /** @description One object of variable values per video (as `variables` of a video from the template). */
                    rows: {
                        [key: string]: string;
                    }[];
                    /** @description Receives batch.completed once every row has settled (signed like every event). */
                    webhook: string;
                };
                "multipart/form-data": {
                    /**
                     * @description Check every row as a batch would be and make nothing: 200 {dry_run, template_uid, rows, first_row: {row, variables, clips}} with the first row's clips filled in, or the batch's 400.
                     * @default false
                     */
                    dry_run?: boolean;
                    /**
                     * @description Each video's own video.completed / video.failed goes to the webhook too.
                     * @default false
                     */
                    notify_each?: boolean;
                    /**
                     * Format: binary
                     * @description A CSV file (UTF-8, RFC 4180 quoting, at most 2097152 bytes): a header row of variable names, then one row per video. An empty cell leaves the variable to its default.
                     */
                    rows: string;
                    /** @description Receives batch.completed once every row has settled (signed like every event). */
                    webhook: string;
                };
            };
        };
        responses: {
            /** @description dry_run: every row is valid; nothing was made */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchDryRun"];
                };
            };
            /** @description Accepted: the batch is queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedBatch"];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createVideoFromTemplate: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A value for each variable of the template; those with a default may be left out. */
                    variables?: {
                        [key: string]: string;
                    };
                    /** @description Address notified when the video is ready, as in a create request. */
                    webhook: string;
                };
            };
        };
        responses: {
            /** @description Accepted: the render is queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedVideo"];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UploadRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["UploadRequest"];
            };
        };
        responses: {
            /** @description Recorded: PUT the file to upload_url with exactly upload_headers */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StartedUpload"];
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    withdrawUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Withdrawn */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "upload_id": "upl_Zk3",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        upload_id: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listVideos: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your videos, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getVideo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The video, with a fresh download link when completed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Video"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteVideo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted: the video and its file are gone */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "video_id": "vid_Zk3",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        video_id: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    downloadVideo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to a fresh download link */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redelivery queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listVoices: {
        parameters: {
            query?: {
                /** @description A BCP 47 tag: `es` lists es, es-419, es-US…; `es-MX` only es-MX. */
                language?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The voices */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        voices: {
                            /** @enum {unknown} */
                            engine: "espeak" | "polly";
                            /** @enum {unknown} */
                            gender: "female" | "male" | null;
                            /**
                             * @example espeak:es+f3
                             * @example polly:Lucia
                             */
                            id: string;
                            /** @description BCP 47 */
                            language: string;
                            /** @description In English */
                            language_name: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
