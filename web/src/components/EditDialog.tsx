/** A modal dialog opened as it mounts: focus stays inside, Escape and "Cancel" close it (the browser's <dialog>). */
import { useEffect, useRef, type ReactNode } from 'react';

export function EditDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="card edit-dialog" aria-label={title} onClose={onClose}>
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}

/** A dialog form's end: the problem with what was typed (announced), then save and cancel. */
export function DialogFooter({ problem, pending, saveLabel, onCancel }: { problem: string | null; pending: boolean; saveLabel: string; onCancel: () => void }) {
  return (
    <>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="dialog-buttons">
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : saveLabel}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
