import { useState, type FormEvent } from 'react';
import { signIn, signUp } from '../api/routes.ts';
import { navigate } from '../router.tsx';
import { ErrorNote } from '../components/ui.tsx';

/** Sign in, or create an account (`mode` 'signup'). */
export function SignIn({ mode }: { mode: 'signin' | 'signup' }) {
  const [handle, setHandle] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await (mode === 'signup' ? signUp(handle.trim(), password) : signIn(handle.trim(), password));
      navigate('/', true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="narrow">
      <h1>{mode === 'signup' ? 'Create your account' : 'Sign in'}</h1>
      <form onSubmit={submit} className="stack">
        <label>
          {mode === 'signup' ? 'Handle' : 'Handle or DID'}
          <input name="handle" autoComplete="username" required value={handle} onChange={(e) => setHandle(e.target.value)} />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error !== null && <ErrorNote error={error} />}
        <button type="submit" disabled={busy}>
          {busy ? 'Please wait…' : mode === 'signup' ? 'Create account' : 'Sign in'}
        </button>
      </form>
      <p className="muted">
        {mode === 'signup' ? (
          <>
            Have an account? <a href="/signin">Sign in</a>
          </>
        ) : (
          <>
            New here? <a href="/signup">Create an account</a>
          </>
        )}
      </p>
    </section>
  );
}
