/**
 * A fake filehostB (Dropbox API v2) on loopback: OAuth, users/get_current_account,
 * files/get_metadata, files/list_folder (+ /continue, paged, with cursors into a change log)
 * and files/download (with byte ranges), answering errors in Dropbox's shapes: 409 with
 * {error_summary, error} for an endpoint's own errors, 400 text for malformed calls, 401 for a
 * bad token. API and content endpoints share one origin.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeOAuth, fakeProviderConfig } from '../fake/oauth.ts';
import type { FakeFileHost, FakeFileHostOptions } from '../fake/file-host.ts';
import { readBody, sendJson, startFakeServer } from '../fake/server.ts';
import { FakeTree, metadata, type Node } from './fake-tree.ts';
import { headerJson } from './header-json.ts';
import type { ApiError, FullAccount, ListFolderResult, Metadata } from './wire.ts';

/** filehostB's fake can also invalidate its cursors. */
export interface FakeFileHostB extends FakeFileHost {
  /** Every cursor handed out so far answers reset from now on. */
  resetCursors(): void;
}

/** What a cursor stands for: the listing entries not yet sent, then the log from `logPosition` on. */
interface CursorState {
  root: string;
  pending: Metadata[];
  logPosition: number;
  generation: number;
}

/** The home namespace of every fake account: what the root path '' is. */
const HOME_NAMESPACE = '1735209';

type Endpoint = (request: IncomingMessage, response: ServerResponse, account: string) => Promise<void>;

export async function startFakeFileHostB(options: FakeFileHostOptions = {}): Promise<FakeFileHostB> {
  const oauth = new FakeOAuth({
    clientId: options.clientId ?? 'fake-filehostb-id',
    clientSecret: options.clientSecret ?? 'fake-filehostb-secret',
    account: options.account,
  });
  const tree = new FakeTree();
  const pageSize = options.pageSize ?? 500;
  const cursors = new Map<string, CursorState>();
  let generation = 0;
  let bytesServed = 0;

  function page(state: CursorState): ListFolderResult {
    const current = state.pending.length > 0 ? state : { ...state, pending: tree.changesSince(state.logPosition, state.root), logPosition: tree.logLength };
    const rest = current.pending.slice(pageSize);
    const cursor = randomBytes(16).toString('base64url');
    cursors.set(cursor, { ...current, pending: rest });
    return { entries: current.pending.slice(0, pageSize), cursor, has_more: rest.length > 0 };
  }

  const endpoints: Record<string, Endpoint> = {
    '/users/get_current_account': async (request, response, account) => {
      const argument = await rpcArgument(request, response, 'users/get_current_account');
      if (argument === undefined) return;
      if (argument !== null) return badInput(response, 'users/get_current_account', 'this function takes no arguments');
      sendJson(response, 200, accountOf(account));
    },
    '/files/get_metadata': async (request, response) => {
      const argument = await objectArgument(request, response, 'files/get_metadata', 'path');
      if (argument === undefined) return;
      if (argument.path === '') return badInput(response, 'files/get_metadata', 'request body: path: The root folder is unsupported.');
      const node = tree.resolve(argument.path);
      return node ? sendJson(response, 200, metadata(node)) : lookupError(response, 'not_found');
    },
    '/files/list_folder': async (request, response) => {
      const argument = await objectArgument(request, response, 'files/list_folder', 'path');
      if (argument === undefined) return;
      if (argument.path === '/') return badInput(response, 'files/list_folder', 'path: Specify the root folder as an empty string rather than as "/".');
      // Earshot lists recursively only; so does the fake.
      if (argument.recursive !== true) return badInput(response, 'files/list_folder', 'the fake lists recursively only');
      const node = argument.path === '' ? null : tree.resolve(argument.path);
      if (node === undefined) return lookupError(response, 'not_found');
      if (node?.kind === 'file') return lookupError(response, 'not_folder');
      const root = node ? node.display.toLowerCase() : '';
      sendJson(response, 200, page({ root, pending: tree.listing(root), logPosition: tree.logLength, generation }));
    },
    '/files/list_folder/continue': async (request, response) => {
      const argument = await objectArgument(request, response, 'files/list_folder/continue', 'cursor');
      if (argument === undefined) return;
      const state = cursors.get(argument.cursor);
      if (!state) return badInput(response, 'files/list_folder/continue', 'Invalid "cursor" parameter');
      if (state.generation !== generation) return sendJson(response, 409, { error_summary: 'reset/..', error: { '.tag': 'reset' } } satisfies ApiError);
      if (state.root !== '' && tree.resolve(state.root)?.kind !== 'folder') return lookupError(response, 'not_found');
      sendJson(response, 200, page(state));
    },
    '/files/download': async (request, response) => {
      const argument = await objectArgument(request, response, 'files/download', 'path', 'header');
      if (argument === undefined) return;
      const node = tree.resolve(argument.path);
      if (!node) return lookupError(response, 'not_found');
      if (node.kind !== 'file') return lookupError(response, 'not_file');
      bytesServed += sendFile(response, node, request.headers.range);
    },
  };

  const server = await startFakeServer(async (request, response, url) => {
    if (await oauth.handle(request, response, url)) return;
    const endpoint = request.method === 'POST' ? endpoints[url.pathname] : undefined;
    if (!endpoint) return sendText(response, 404, `Unknown API function: ${url.pathname}`);
    const account = oauth.authenticate(request);
    if (account === null)
      return sendJson(response, 401, { error_summary: 'invalid_access_token/..', error: { '.tag': 'invalid_access_token' } } satisfies ApiError);
    await endpoint(request, response, account);
  }, options.port);

  return {
    server,
    oauth,
    url: server.url,
    config: fakeProviderConfig(oauth, server.url),
    addFolder: (path) => tree.addFolder(path).id,
    addFile: (path, bytes, modifiedAt) => tree.addFile(path, bytes, modifiedAt).id,
    removePath: (path) => tree.remove(path),
    move: (from, to) => tree.move(from, to),
    get bytesServed() {
      return bytesServed;
    },
    resetCursors() {
      generation++;
    },
    close: () => server.close(),
  };
}

function accountOf(account: string): FullAccount {
  return {
    account_id: `dbid:${createHash('sha256').update(account).digest('base64url').slice(0, 40)}`,
    name: { display_name: account },
    email: account.includes('@') ? account : `${account}@example.com`,
    root_info: { '.tag': 'user', root_namespace_id: HOME_NAMESPACE, home_namespace_id: HOME_NAMESPACE },
  };
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}

/** Dropbox answers a call it cannot read with 400 and a sentence, not JSON. */
function badInput(response: ServerResponse, endpoint: string, problem: string): undefined {
  sendText(response, 400, `Error in call to API function "${endpoint}": ${problem}`);
  return undefined;
}

/** A path argument that names nothing usable: Dropbox's LookupError, under the endpoint's 'path' error. */
function lookupError(response: ServerResponse, lookup: 'not_found' | 'not_folder' | 'not_file'): void {
  sendJson(response, 409, { error_summary: `path/${lookup}/..`, error: { '.tag': 'path', path: { '.tag': lookup } } } satisfies ApiError);
}

type Argument = Record<string, unknown>;

/** An RPC endpoint's JSON argument (null when there is none: no body), or undefined once a malformed call is answered. */
async function rpcArgument(request: IncomingMessage, response: ServerResponse, endpoint: string): Promise<unknown> {
  const text = await readBody(request);
  const type = request.headers['content-type'];
  if (text === '' && type === undefined) return null;
  if (!type?.startsWith('application/json'))
    return badInput(
      response,
      endpoint,
      `Bad HTTP "Content-Type" header: "${type ?? ''}". Expecting one of "application/json", "application/json; charset=utf-8".`,
    );
  return parseJson(text, response, endpoint);
}

/** An argument object with the string field `required`, from the body or (content endpoints) the Dropbox-API-Arg header. */
async function objectArgument<K extends string>(
  request: IncomingMessage,
  response: ServerResponse,
  endpoint: string,
  required: K,
  from: 'body' | 'header' = 'body',
): Promise<(Argument & Record<K, string>) | undefined> {
  const value = from === 'header' ? headerJsonArgument(request, response, endpoint) : await rpcArgument(request, response, endpoint);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || typeof (value as Argument)[required] !== 'string')
    return badInput(response, endpoint, `${required}: missing or not a string`);
  return value as Argument & Record<K, string>;
}

function headerJsonArgument(request: IncomingMessage, response: ServerResponse, endpoint: string): unknown {
  const header = request.headers['dropbox-api-arg'];
  return typeof header === 'string' ? parseJson(header, response, endpoint) : badInput(response, endpoint, 'Missing "Dropbox-API-Arg" header');
}

function parseJson(text: string, response: ServerResponse, endpoint: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return badInput(response, endpoint, 'could not decode input as JSON');
  }
}

/** Sends the file, or the single byte range asked for; returns how many bytes of content went out. */
function sendFile(response: ServerResponse, file: Node & { kind: 'file' }, rangeHeader: string | undefined): number {
  const size = file.bytes.length;
  const headers = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', 'dropbox-api-result': headerJson(metadata(file)) };
  const range = byteRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    response.writeHead(416, { ...headers, 'content-range': `bytes */${size}` });
    response.end();
    return 0;
  }
  const [start, end] = range ?? [0, size - 1];
  const body = file.bytes.subarray(start, end + 1);
  response.writeHead(range ? 206 : 200, {
    ...headers,
    'content-length': String(body.length),
    ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  });
  response.end(body);
  return body.length;
}

/**
 * The inclusive byte range of a single-range Range header (RFC 9110 §14.1.2), 'unsatisfiable',
 * or null to send the whole file (no header, or one not understood, which a server may ignore).
 */
function byteRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const last = match[2] === '' ? Infinity : Number(match[2]);
  if (last < start) return null;
  return start >= size ? 'unsatisfiable' : [start, Math.min(last, size - 1)];
}
