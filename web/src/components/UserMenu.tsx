/**
 * The top bar's account corner: for the signed-in, their handle (and avatar) on a disclosure
 * button whose menu holds Profile, Settings, Wrapped and Sign out; for everyone else, Sign in and
 * Sign up. Escape, a click outside or moving focus away closes the menu.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { signOut } from '../api/routes.ts';
import { useSession } from '../api/session.ts';
import { query } from '../api/xrpc.ts';
import { Link, navigate } from '../router.tsx';

export function UserMenu() {
  const session = useSession();
  if (!session) {
    return (
      <div className="account">
        <Link href="/signin">Sign in</Link>
        <Link href="/signup" className="button">
          Sign up
        </Link>
      </div>
    );
  }
  return <AccountMenu handle={session.handle} did={session.did} />;
}

function AccountMenu({ handle, did }: { handle: string; did: string }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // The profile page reads the same query: one request serves both.
  const profile = useQuery({ queryKey: ['profile', handle, did], queryFn: () => query('app.svc.actor.getProfile', { did: handle }) });
  const avatar = profile.data?.avatar;

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onOutside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open]);
  // A choice made closes the menu too.
  const close = () => setOpen(false);

  const base = `/u/${encodeURIComponent(handle)}`;
  return (
    <div className="account user-menu" ref={root}>
      <button ref={button} type="button" className="secondary" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        {avatar ? <img className="user-menu-avatar" src={avatar} alt="" width={24} height={24} /> : null}
        <span className="visually-hidden">Signed in as </span>
        {handle}
        <span aria-hidden="true"> ▾</span>
      </button>
      <ul id={menuId} className="user-menu-list" hidden={!open}>
        <li>
          <Link href={base} onClick={close}>
            Profile
          </Link>
        </li>
        <li>
          <Link href="/settings" onClick={close}>
            Settings
          </Link>
        </li>
        <li>
          <Link href={`${base}/wrapped`} onClick={close}>
            Wrapped
          </Link>
        </li>
        <li>
          <button type="button" className="link" onClick={() => void signOut().then(() => navigate('/'))}>
            Sign out
          </button>
        </li>
      </ul>
    </div>
  );
}
