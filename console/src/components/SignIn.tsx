import { useState } from 'preact/hooks';
import { signIn, signInError } from '../state.ts';

export function SignIn() {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main class="signin">
      <h1>vidbot console</h1>
      <p>Make videos with talking bots, watch them render, and see the webhooks they send.</p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          await signIn(key);
          setBusy(false);
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          placeholder="vb_…"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          required
          aria-describedby="api-key-help"
        />
        <p id="api-key-help" class="help">
          <code>npm start</code> prints one; on AWS, <code>npm run keys -- create</code>. It stays in this tab only (sessionStorage).
        </p>
        {signInError.value && (
          <p class="field-error" role="alert">
            {signInError.value}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy || !key.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
