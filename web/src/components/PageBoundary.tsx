import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * Keeps a page's failure inside the page: a code chunk that cannot load (the connection dropped,
 * or a new version replaced the files) or a render error shows a note with a way back, while the
 * top bar and the player stay. Without it React unmounts the whole app and leaves a blank window.
 * `path` resets it, so following a link tries again.
 */
export class PageBoundary extends Component<{ path: string; children: ReactNode }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidUpdate(previous: { path: string }) {
    if (previous.path !== this.props.path && this.state.failed) this.setState({ failed: false });
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section>
        <h1>This page could not load</h1>
        <p className="error" role="alert">
          {navigator.onLine
            ? 'Part of the app failed to load. Reloading usually fixes it.'
            : 'You are offline, and this page has not been opened on this device before.'}
        </p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </section>
    );
  }
}
