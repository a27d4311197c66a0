import type { BatchPreview, Template } from '../api.ts';
import {
  batchDraft,
  batchError,
  batchPreview,
  batchProblems,
  batchProblemsAt,
  checkBatchRows,
  checkingRows,
  csvHeaderOf,
  deleteTemplate,
  pendingTemplateDelete,
  problemPlace,
  selectedTemplate,
  sendBatch,
  sendingBatch,
} from '../batches.ts';
import { inboxUrl } from '../state.ts';
import { FieldError, invalidProps } from './FieldError.tsx';
import { FileDrop } from './FileDrop.tsx';

/** A clip of a template (or of its filled first row) in a line: its bot, its name, and what it says. */
function ClipLine({ clip, index }: { clip: Record<string, unknown>; index: number }) {
  const said = typeof clip.text === 'string' ? clip.text : clip.clip_uid ? `kept clip ${String(clip.clip_uid)}` : '';
  return (
    <li>
      <span class="help">
        Clip {index + 1}
        {clip.bot_uid ? ` · ${String(clip.bot_uid)}` : ''}
        {clip.clip_name ? ` · ${String(clip.clip_name)}` : ''}
      </span>
      <br />
      <q class="wrap-anywhere">{said}</q>
    </li>
  );
}

/** The first row as it will be made: its values, and the clips with every placeholder filled. */
function Preview({ preview }: { preview: BatchPreview }) {
  return (
    <div class="preview" aria-labelledby="preview-title">
      <h4 id="preview-title">
        {preview.rows} {preview.rows === 1 ? 'row' : 'rows'}, every one valid. Row 1 as it will be made:
      </h4>
      <p class="help">
        {Object.entries(preview.first_row.variables)
          .map(([name, value]) => `${name} = “${value}”`)
          .join(' · ') || 'No values: every variable takes its default.'}
      </p>
      <ol class="clip-lines">
        {preview.first_row.clips.map((clip, index) => (
          <ClipLine clip={clip} index={index} />
        ))}
      </ol>
    </div>
  );
}

function TemplateFacts({ template }: { template: Template }) {
  const header = csvHeaderOf(template);
  return (
    <>
      <header class="detail-head">
        <h3 id="template-title">{template.name}</h3>
        <code>{template.uid}</code>
      </header>
      <ol class="clip-lines">
        {template.clips.map((clip, index) => (
          <ClipLine clip={clip} index={index} />
        ))}
      </ol>
      <h4>Variables</h4>
      {template.variables.length === 0 ? (
        <p class="help">None: every video of it is the same.</p>
      ) : (
        <ul class="counts">
          {template.variables.map((v) => (
            <li>
              <code>{v.name}</code> {v.required ? <span class="badge">required</span> : <span class="help">default “{v.default}”</span>}
            </li>
          ))}
        </ul>
      )}
      <p class="help">
        A CSV's first line names the variables:{' '}
        <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(header)}`} download={`${template.uid}.csv`}>
          download the header
        </a>{' '}
        (<code>{header.trim() || '—'}</code>), then one line per video.
      </p>
    </>
  );
}

/** A template, and the form that sends it a CSV of rows: checked first (nothing made), then sent. */
export function BatchSend() {
  const template = selectedTemplate.value;
  if (!template) return <p class="help">That template is gone.</p>;
  const draft = batchDraft.value;
  const preview = batchPreview.value;
  const rowProblems = batchProblems.value.filter((p) => p.path !== 'webhook' && p.path !== 'rows');
  return (
    <article class="card" aria-labelledby="template-title">
      <TemplateFacts template={template} />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void sendBatch(template.uid);
        }}
      >
        <h4>Send a batch</h4>
        <label for="batch-webhook">Webhook URL</label>
        <input
          id="batch-webhook"
          type="url"
          inputMode="url"
          value={draft.webhook}
          onInput={(e) => (batchDraft.value = { ...draft, webhook: e.currentTarget.value })}
          {...invalidProps('batch-webhook-error', 'webhook', batchProblemsAt)}
        />
        <p class="help">
          Hears one signed <code>batch.completed</code> when every row has settled
          {draft.webhook === inboxUrl.value ? ' (this is your webhook inbox)' : ''}.
        </p>
        <FieldError id="batch-webhook-error" path="webhook" at={batchProblemsAt} />
        <label class="check">
          <input
            type="checkbox"
            checked={draft.notifyEach}
            onChange={(e) => (batchDraft.value = { ...draft, notifyEach: e.currentTarget.checked })}
          />
          Also send each video's own event
        </label>
        <FileDrop
          id="batch-rows"
          label="Rows (CSV)"
          accept=".csv,text/csv"
          hint="a CSV file (UTF-8, a header row of variable names)"
          file={draft.file}
          onFile={(file) => {
            batchDraft.value = { ...draft, file };
            void checkBatchRows(template.uid);
          }}
          path="rows"
          at={batchProblemsAt}
        />
        {checkingRows.value && <p class="help">Checking every row…</p>}
        {preview && <Preview preview={preview} />}
        {batchError.value && (
          <div class="notice error" role="alert">
            <p>{batchError.value}</p>
            {rowProblems.length > 0 && (
              <ul>
                {rowProblems.map((p) => (
                  <li>
                    <strong>{problemPlace(p.path)}</strong> {p.message}
                  </li>
                ))}
              </ul>
            )}
            <p class="help">Nothing was made. Fix the file and choose it again.</p>
          </div>
        )}
        <button type="submit" class="primary big" disabled={!preview || sendingBatch.value}>
          {sendingBatch.value
            ? 'Sending…'
            : preview
              ? `Make ${preview.rows} ${preview.rows === 1 ? 'video' : 'videos'}`
              : 'Choose a CSV to check first'}
        </button>
      </form>
      <div class="actions">
        {pendingTemplateDelete.value === template.uid ? (
          <span class="confirm" role="group" aria-label="Confirm delete">
            Delete this template? Its batches and videos stay.
            <button type="button" class="danger" onClick={() => deleteTemplate(template.uid)}>
              Yes, delete
            </button>
            <button type="button" onClick={() => (pendingTemplateDelete.value = null)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" class="danger" onClick={() => (pendingTemplateDelete.value = template.uid)}>
            Delete template
          </button>
        )}
      </div>
    </article>
  );
}
