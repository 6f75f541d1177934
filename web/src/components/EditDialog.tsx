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
