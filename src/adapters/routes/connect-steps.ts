/**
 * The steps of connecting an account as callers take them: starting an authorization and finishing
 * it (in the browser the provider sends back, or by the client that started it). A refusal is
 * answered as 400, a provider failure in its own mapping; a file host's first sync starts once
 * its account is connected.
 */
import { invalidRequest } from '../../toolkit/errors.ts';
import type { ProviderName } from '../../toolkit/config.ts';
import type { AppContext } from '../../core/context.ts';
import type { FileHostName } from '../../core/filehost/hosts.ts';
import { startMirror } from '../../core/filehost/sync.ts';
import { beginConnect, completeConnect, ConnectRefused, type Callback, type Connected, type Finisher } from '../../core/providers/connect.ts';
import { asXrpcProviderCall } from '../../core/providers/errors.ts';

async function connectStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await asXrpcProviderCall(step);
  } catch (error) {
    throw error instanceof ConnectRefused ? invalidRequest(error.message) : error;
  }
}

/** Starts an authorization finished by `finisher`: the provider URL to send the browser to, and the nonce a browser's cookie binds. */
export function startConnect(ctx: AppContext, userId: string, provider: ProviderName, folder: string | undefined, finisher: Finisher) {
  return connectStep(() => beginConnect(ctx, userId, provider, { folder, finisher }));
}

/** A connected account's answer, its file host folder's first sync started. */
async function connectedAnswer(ctx: AppContext, connected: Connected) {
  if (connected.folder !== null) await startMirror(ctx, connected.userId, connected.provider as FileHostName, connected.folder);
  const what = connected.folder === null ? '' : `; ${connected.folder} is being added to your library`;
  return {
    provider: connected.provider,
    account: connected.account,
    folder: connected.folder,
    message: `Connected ${connected.provider} as ${connected.account.name}${what}. You can close this page.`,
  };
}

/** Finishes at the callback the browser was sent back to, proven by its binding cookie; an authorization its client finishes connects nothing here. */
export async function finishInBrowser(ctx: AppContext, provider: ProviderName, callback: Callback, cookie: string | undefined) {
  const connected = await connectStep(() => completeConnect(ctx, provider, callback, { finisher: 'browser', cookie }));
  if (connected === 'awaiting-client') {
    return {
      message: `Nothing is connected yet: if you ran the command that asked you to open the ${provider} page, paste this page's address into it to finish. Give the address to no one else: it would let them connect your ${provider} account to their Earshot account.`,
    };
  }
  return connectedAnswer(ctx, connected);
}

/** Finishes an authorization started with finish=client, by the account that started it. */
export async function finishByClient(ctx: AppContext, provider: ProviderName, callback: Callback, userId: string) {
  return connectedAnswer(ctx, await connectStep(() => completeConnect(ctx, provider, callback, { finisher: 'client', userId })));
}
