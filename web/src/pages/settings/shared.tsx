/** Pieces the settings sections share: a section frame, copying to the clipboard, and a secret shown once. */
import { useState, type ReactNode } from 'react';

export function SettingsSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`} id={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

/** Copies `text`; says so (or that the browser refused, e.g. over plain http) where screen readers hear it. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [note, setNote] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setNote('Copied');
    } catch {
      setNote('Copying was refused by the browser: select the text and copy it yourself');
    }
  };
  return (
    <span className="copy">
      <button type="button" className="secondary" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" aria-live="polite" className="muted small">
        {note}
      </span>
    </span>
  );
}

/** A value with its own copy button, e.g. a URL to paste into a client. */
export function CopyValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="copy-value">
      <dt>{label}</dt>
      <dd>
        <code>{value}</code> <CopyButton text={value} label="Copy" />
      </dd>
    </div>
  );
}

/** A freshly created secret: shown here once, never again, until dismissed. */
export function SecretOnce({ title, children, onDone }: { title: string; children: ReactNode; onDone: () => void }) {
  return (
    <div className="secret-once" role="region" aria-label={title}>
      <p>
        <strong>{title}.</strong> Copy it now: it is not shown again.
      </p>
      {children}
      <button type="button" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
