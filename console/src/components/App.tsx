import { useEffect } from 'preact/hooks';
import { batchInProgress, loadBatch, loadTemplates } from '../batches.ts';
import {
  account,
  anyBotPreparing,
  anyInProgress,
  apiKey,
  loadAll,
  loadBots,
  loadInbox,
  loadLibrary,
  loadVideos,
  notice,
  signOut,
  type Tab,
  tab,
} from '../state.ts';
import { AccountPanel } from './AccountPanel.tsx';
import { Bots } from './Bots.tsx';
import { Composer } from './Composer.tsx';
import { Inbox } from './Inbox.tsx';
import { SignIn } from './SignIn.tsx';
import { Templates } from './Templates.tsx';
import { Videos } from './Videos.tsx';

const TABS: { id: Tab; label: string }[] = [
  { id: 'create', label: 'Create' },
  { id: 'videos', label: 'Videos' },
  { id: 'templates', label: 'Templates' },
  { id: 'inbox', label: 'Webhook inbox' },
  { id: 'bots', label: 'Bots' },
  { id: 'account', label: 'Account' },
];

/** Polls while something can change: videos in progress, bots being prepared, or the open inbox. */
function usePolling() {
  useEffect(() => {
    const timer = setInterval(() => {
      if (!apiKey.value) return;
      if (anyInProgress.value || tab.value === 'videos') void loadVideos();
      if (tab.value === 'inbox') void loadInbox();
      if (anyBotPreparing.value) void loadBots();
      if (tab.value === 'templates' && batchInProgress.value) void Promise.all([loadTemplates(), loadBatch()]);
    }, 2000);
    return () => clearInterval(timer);
  }, []);
}

function open(next: Tab) {
  tab.value = next;
  notice.value = null;
  if (next === 'videos') void loadVideos();
  if (next === 'templates') void Promise.all([loadTemplates(), loadBatch()]);
  if (next === 'inbox') void loadInbox();
  if (next === 'bots') void loadBots();
  if (next === 'account') void loadLibrary();
}

export function App() {
  usePolling();
  useEffect(() => {
    if (apiKey.value) void loadAll();
  }, []);
  if (!apiKey.value) return <SignIn />;
  return (
    <div class="shell">
      <header class="topbar">
        <span class="brand">vidbot</span>
        <nav aria-label="Sections">
          {TABS.map((t) => (
            <button type="button" class="tab" aria-current={tab.value === t.id ? 'page' : undefined} onClick={() => open(t.id)}>
              {t.label}
            </button>
          ))}
        </nav>
        <span class="who">
          {account.value?.name ?? ''}
          {account.value?.test && (
            <>
              {' '}
              <span class="badge busy" title="A test key: its videos are 360p and marked TEST">
                TEST KEY
              </span>
            </>
          )}
        </span>
        <button type="button" class="link" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      {notice.value && (
        <div class={`notice ${notice.value.kind}`} role={notice.value.kind === 'error' ? 'alert' : 'status'}>
          {notice.value.text}
          <button type="button" class="link" aria-label="Dismiss message" onClick={() => (notice.value = null)}>
            ×
          </button>
        </div>
      )}
      <main>
        {tab.value === 'create' && <Composer />}
        {tab.value === 'videos' && <Videos />}
        {tab.value === 'templates' && <Templates />}
        {tab.value === 'inbox' && <Inbox />}
        {tab.value === 'bots' && <Bots />}
        {tab.value === 'account' && <AccountPanel />}
      </main>
    </div>
  );
}
