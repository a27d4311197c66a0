import { useEffect, useRef } from 'preact/hooks';
import type { Batch } from '../api.ts';
import {
  batches,
  composerVariables,
  openBatch,
  saveTemplate,
  savingTemplate,
  selection,
  selectTemplate,
  templateDraft,
  templateError,
  templateProblems,
  templates,
} from '../batches.ts';
import { composer, tab } from '../state.ts';
import { BatchProgress } from './BatchProgress.tsx';
import { BatchSend } from './BatchSend.tsx';
import { FieldError, invalidProps } from './FieldError.tsx';
import { BatchBadge } from './Status.tsx';

const problemsAt = (path: string) => templateProblems.value.filter((p) => p.path === path);

/** The composer's design saved as a template: its uid and name here, its clips as they are under "Create". */
function SaveTemplate() {
  const draft = templateDraft.value;
  const { names, problems } = composerVariables.value;
  const clips = composer.value.clips.length;
  return (
    <form
      class="card"
      aria-labelledby="save-template-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void saveTemplate();
      }}
    >
      <h3 id="save-template-title">Save the design as a template</h3>
      <p class="help">
        The {clips} {clips === 1 ? 'clip' : 'clips'} under{' '}
        <button type="button" class="link" onClick={() => (tab.value = 'create')}>
          Create
        </button>{' '}
        {clips === 1 ? 'becomes' : 'become'} a template. Write <code>{'{{first_name}}'}</code> in a clip's text (or{' '}
        <code>{'{{company|our studio}}'}</code> with a default) for a value each video fills in; a clip with none (an outro) is rendered once per
        batch.
      </p>
      <p class="help" aria-live="polite">
        {names.length === 0
          ? 'Its clips name no variable yet.'
          : `Variables: ${names.map((v) => (v.fallback === undefined ? v.name : `${v.name} (default “${v.fallback}”)`)).join(', ')}.`}
      </p>
      {problems.map((p) => (
        <p class="field-error">{p}</p>
      ))}
      <div class="row two">
        <div>
          <label for="template-uid">Template uid</label>
          <input
            id="template-uid"
            value={draft.uid}
            placeholder="outreach"
            onInput={(e) => (templateDraft.value = { ...draft, uid: e.currentTarget.value })}
            {...invalidProps('template-uid-error', 'uid', problemsAt)}
          />
          <FieldError id="template-uid-error" path="uid" at={problemsAt} />
        </div>
        <div>
          <label for="template-name">Name</label>
          <input
            id="template-name"
            value={draft.name}
            placeholder="Sales outreach"
            onInput={(e) => (templateDraft.value = { ...draft, name: e.currentTarget.value })}
            {...invalidProps('template-name-error', 'name', problemsAt)}
          />
          <FieldError id="template-name-error" path="name" at={problemsAt} />
        </div>
      </div>
      {templateError.value && (
        <div class="notice error" role="alert">
          <p>{templateError.value}</p>
          <ul>
            {templateProblems.value
              .filter((p) => p.path !== 'uid' && p.path !== 'name')
              .map((p) => (
                <li>
                  <code>{p.path}</code>: {p.message}
                </li>
              ))}
          </ul>
        </div>
      )}
      <button type="submit" class="primary" disabled={savingTemplate.value || !draft.uid.trim()}>
        {savingTemplate.value ? 'Saving…' : 'Save template'}
      </button>
    </form>
  );
}

const batchDone = (batch: Batch) => batch.counts.completed + batch.counts.failed + batch.counts.cancelled;

export function Templates() {
  const chosen = selection.value;
  const detail = useRef<HTMLDivElement>(null);
  // On a phone the detail is below the lists: bring what was just picked into view.
  const picked = chosen ? `${chosen.kind}:${'uid' in chosen ? chosen.uid : chosen.id}` : '';
  useEffect(() => {
    if (picked && window.matchMedia('(max-width: 760px)').matches) detail.current?.scrollIntoView({ block: 'start' });
  }, [picked]);
  return (
    <section aria-labelledby="templates-title">
      <h2 id="templates-title">Templates and batches</h2>
      <div class="split">
        <div class="list">
          <SaveTemplate />
          <h3>Your templates</h3>
          {templates.value.length === 0 && <p class="help">No template yet.</p>}
          <ul class="video-list">
            {templates.value.map((t) => (
              <li>
                <button
                  type="button"
                  class={`video-row plain${chosen?.kind === 'template' && chosen.uid === t.uid ? ' selected' : ''}`}
                  aria-pressed={chosen?.kind === 'template' && chosen.uid === t.uid}
                  onClick={() => selectTemplate(t.uid)}
                >
                  <span class="name">{t.name}</span>
                  <span class="words">
                    <code>{t.uid}</code> · {t.clips.length} {t.clips.length === 1 ? 'clip' : 'clips'} ·{' '}
                    {t.variables.length ? t.variables.map((v) => v.name).join(', ') : 'no variables'}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <h3>Batches</h3>
          {batches.value.length === 0 && <p class="help">No batch yet: pick a template and send it a CSV.</p>}
          <ul class="video-list">
            {batches.value.map((b) => (
              <li>
                <button
                  type="button"
                  class={`video-row plain${chosen?.kind === 'batch' && chosen.id === b.batch_id ? ' selected' : ''}`}
                  aria-pressed={chosen?.kind === 'batch' && chosen.id === b.batch_id}
                  onClick={() => void openBatch(b.batch_id)}
                >
                  <span class="row-top">
                    <span class="name">{b.template_name}</span>
                    <BatchBadge batch={b} />
                  </span>
                  <span class="words">
                    {batchDone(b)} of {b.rows} rows settled · {new Date(b.created_at).toLocaleString()}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
        <div class="detail" ref={detail}>
          {chosen?.kind === 'template' && <BatchSend />}
          {chosen?.kind === 'batch' && <BatchProgress />}
          {!chosen && <p class="help">Pick a template to send it rows of data, or a batch to follow its videos.</p>}
        </div>
      </div>
    </section>
  );
}
