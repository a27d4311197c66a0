import { useEffect, useRef, useState } from 'preact/hooks';
import type { Problem } from '../api.ts';
import { FieldError } from './FieldError.tsx';

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * A file field that is also a drop zone: a visible label and a native file input (keyboard and screen readers
 * use it as any file input), and the whole box takes a dropped file. A dropped file is put into the input too, so
 * the input and the form never disagree. Shows a chosen picture, and a chosen recording as a player.
 */
export function FileDrop({
  id,
  label,
  accept,
  hint,
  file,
  onFile,
  path,
  at,
}: {
  id: string;
  label: string;
  accept: string;
  hint: string;
  file: File | null;
  onFile: (file: File | null) => void;
  path: string;
  at: (path: string) => Problem[];
}) {
  const invalid = at(path).length > 0;
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);

  // The file the input was last told about: the input is emptied only when a chosen file is taken away (a sent
  // form), never by the first render's effect, which can run after a fast drop has already filled the input.
  const shown = useRef<File | null>(null);
  useEffect(() => {
    const had = shown.current;
    shown.current = file;
    if (!file) {
      if (had && input.current) input.current.value = '';
      setPreview(null);
      return;
    }
    // A file given from elsewhere (a recording made with the webcam) replaces one chosen before: the input no
    // longer names the old one.
    const chosen = input.current?.files?.[0];
    if (input.current && chosen && !sameFile(chosen, file)) input.current.value = '';
    // A picture is shown, a recording is a player; anything else (a CSV) is named by the hint alone.
    if (!/^(image|video|audio)\//.test(file.type)) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <div
      class={`drop${over ? ' over' : ''}`}
      onDragEnter={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        // Moving over the zone's own children is not leaving it.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const dropped = e.dataTransfer?.files[0];
        if (!dropped) return;
        if (input.current && e.dataTransfer) input.current.files = e.dataTransfer.files;
        onFile(dropped);
      }}
    >
      <label for={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        onChange={(e) => onFile(e.currentTarget.files?.[0] ?? null)}
        aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
        aria-invalid={invalid || undefined}
      />
      <p class="help" id={`${id}-hint`}>
        {file ? `${file.name} · ${size(file.size)}` : `Drop ${hint} here, or choose a file.`}
      </p>
      <FieldError id={`${id}-error`} path={path} at={at} />
      {preview && file?.type.startsWith('image/') && <img class="drop-preview" src={preview} alt={`${label}: ${file.name}`} />}
      {preview && file?.type.startsWith('video/') && (
        <video class="drop-player" src={preview} controls playsInline preload="metadata" aria-label={`${label}: play ${file.name}`} />
      )}
      {preview && file?.type.startsWith('audio/') && (
        <audio class="drop-player" src={preview} controls preload="metadata" aria-label={`${label}: play ${file.name}`} />
      )}
    </div>
  );
}

/** Whether two File objects are the same file (a dropped file put into the input is another object for it). */
const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
