/** Component tests' frame: a fresh query client per render, and XRPC answers stubbed by nsid. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { Input, Output, ProcedureNsid, QueryNsid } from './api/xrpc.ts';

export function renderWithQueries(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

/** A query answers from its URL parameters, a procedure from its JSON body. */
type Answers = { [N in QueryNsid]?: (params: URLSearchParams) => Output<N> } & { [N in ProcedureNsid]?: (input: Input<N>) => Output<N> };

/** Stubs fetch: each operation named in `answers` gets its answer; the stub records every call's URL. */
export function stubXrpc(answers: Answers) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const { pathname, searchParams } = new URL(url, 'http://app.test');
    const answer = (answers as Record<string, ((given: unknown) => unknown) | undefined>)[pathname.replace('/xrpc/', '')];
    if (!answer) return new Response(JSON.stringify({ error: 'MethodNotImplemented', message: `no stub for ${pathname}` }), { status: 501 });
    const given = init?.method === 'POST' ? JSON.parse(String(init.body)) : searchParams;
    return new Response(JSON.stringify(answer(given)), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  /** The calls made to one query, as their parameters. */
  return (nsid: QueryNsid) =>
    fetch.mock.calls
      .map(([url]) => new URL(url, 'http://app.test'))
      .filter((url) => url.pathname === `/xrpc/${nsid}`)
      .map((url) => url.searchParams);
}
