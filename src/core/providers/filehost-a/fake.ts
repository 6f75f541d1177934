/**
 * A fake filehostA on loopback, speaking the slice of Drive API v3 the client uses: about,
 * files.list (the query forms the client sends), files.get (metadata, and alt=media with Range),
 * changes.getStartPageToken and changes.list, with Drive's error shape and small pages on request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeOAuth, fakeProviderConfig } from '../fake/oauth.ts';
import type { FakeFileHost, FakeFileHostOptions } from '../fake/file-host.ts';
import { sendJson, startFakeServer } from '../fake/server.ts';
import { type DriveNode, FakeDrive } from './fake-drive.ts';

export type { FakeFileHost };

/** Drive's largest page, and its default. */
const MAX_PAGE = 1000;
const DEFAULT_PAGE = 100;

function driveError(response: ServerResponse, code: number, reason: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(response, code, { error: { code, message, errors: [{ domain: 'global', reason, message }] } }, headers);
}

function fileResource(drive: FakeDrive, node: DriveNode): Record<string, unknown> {
  return {
    kind: 'drive#file',
    id: node.id,
    name: node.name,
    mimeType: node.mimeType,
    ...(node.parentId === null ? {} : { parents: [node.parentId] }),
    modifiedTime: node.modifiedTime.toISOString(),
    trashed: drive.isTrashed(node),
    ...(node.bytes === null ? {} : { size: String(node.bytes.length) }),
  };
}

interface Query {
  parent: string;
  name?: string;
  mimeType?: string;
  trashed?: boolean;
}

const LITERAL = String.raw`'((?:[^'\\]|\\.)*)'`;
const CLAUSE = new RegExp(`^(?:${LITERAL} in parents|name = ${LITERAL}|mimeType = ${LITERAL}|trashed = (true|false))(?: and |$)`);
const unquote = (literal: string) => literal.replace(/\\(.)/g, '$1');

/** The files.list queries the client sends ("'<id>' in parents" with optional name, mimeType, trashed), or null. */
function parseQuery(q: string): Query | null {
  const query: Partial<Query> = {};
  for (let rest = q.trim(); rest !== ''; ) {
    const match = CLAUSE.exec(rest);
    if (!match) return null;
    if (match[1] !== undefined) query.parent = unquote(match[1]);
    if (match[2] !== undefined) query.name = unquote(match[2]);
    if (match[3] !== undefined) query.mimeType = unquote(match[3]);
    if (match[4] !== undefined) query.trashed = match[4] === 'true';
    rest = rest.slice(match[0].length);
  }
  return query.parent === undefined ? null : (query as Query);
}

/** A page token: a position in a list, 'start' to 'end' inclusive, or null when it is not one. */
function position(token: string | null, start: number, end: number): number | null {
  if (token === null) return start;
  const value = Number(token);
  return Number.isInteger(value) && value >= start && value <= end ? value : null;
}

function pageSizeOf(url: URL, limit: number): number {
  const asked = Number(url.searchParams.get('pageSize') ?? DEFAULT_PAGE);
  return Math.min(Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_PAGE) : DEFAULT_PAGE, limit);
}

function listFiles(drive: FakeDrive, response: ServerResponse, url: URL, limit: number): void {
  const query = parseQuery(url.searchParams.get('q') ?? '');
  if (!query) return driveError(response, 400, 'invalid', 'Invalid Value (q)');
  const parent = drive.get(query.parent);
  const matches = (parent ? drive.children(parent.id) : []).filter(
    (node) =>
      (query.name === undefined || node.name === query.name) &&
      (query.mimeType === undefined || node.mimeType === query.mimeType) &&
      (query.trashed === undefined || drive.isTrashed(node) === query.trashed),
  );
  const from = position(url.searchParams.get('pageToken'), 0, matches.length);
  if (from === null) return driveError(response, 400, 'invalid', 'Invalid Value (pageToken)');
  const to = from + pageSizeOf(url, limit);
  sendJson(response, 200, {
    kind: 'drive#fileList',
    files: matches.slice(from, to).map((node) => fileResource(drive, node)),
    ...(to < matches.length ? { nextPageToken: String(to) } : {}),
  });
}

function listChanges(drive: FakeDrive, response: ServerResponse, url: URL, limit: number): void {
  const from = position(url.searchParams.get('pageToken') ?? '', 1, drive.startPageToken);
  if (from === null) return driveError(response, 400, 'invalid', 'Invalid Value (pageToken)');
  const to = Math.min(from + pageSizeOf(url, limit), drive.startPageToken);
  const includeRemoved = url.searchParams.get('includeRemoved') !== 'false';
  const changes = drive.log.slice(from - 1, to - 1).flatMap((fileId) => {
    const node = drive.nodes.get(fileId);
    if (!node && !includeRemoved) return [];
    return [
      {
        kind: 'drive#change',
        changeType: 'file',
        fileId,
        removed: !node,
        time: new Date().toISOString(),
        ...(node ? { file: fileResource(drive, node) } : {}),
      },
    ];
  });
  sendJson(response, 200, {
    kind: 'drive#changeList',
    changes,
    ...(to < drive.startPageToken ? { nextPageToken: String(to) } : { newStartPageToken: String(to) }),
  });
}

/** A single-range Range header as [start, end] inclusive; 'unsatisfiable'; or null to send everything (absent or malformed, as RFC 9110 allows). */
function byteRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return null;
  return start >= size ? 'unsatisfiable' : [start, end];
}

export async function startFakeFileHostA(options: FakeFileHostOptions = {}): Promise<FakeFileHost> {
  const oauth = new FakeOAuth({
    clientId: options.clientId ?? 'filehosta-client',
    clientSecret: options.clientSecret ?? 'filehosta-secret',
    account: options.account ?? 'fake-user',
  });
  const drive = new FakeDrive();
  const limit = options.pageSize ?? MAX_PAGE;
  let bytesServed = 0;

  function media(request: IncomingMessage, response: ServerResponse, node: DriveNode): void {
    if (node.bytes === null) return driveError(response, 403, 'fileNotDownloadable', 'Only files with binary content can be downloaded.');
    const bytes = node.bytes;
    const range = byteRange(request.headers.range, bytes.length);
    if (range === 'unsatisfiable')
      return driveError(response, 416, 'requestedRangeNotSatisfiable', 'Request range not satisfiable', { 'content-range': `bytes */${bytes.length}` });
    const [start, end] = range ?? [0, bytes.length - 1];
    const body = bytes.subarray(start, end + 1);
    response.writeHead(range ? 206 : 200, {
      'content-type': node.mimeType,
      'content-length': String(body.length),
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${end}/${bytes.length}` } : {}),
    });
    bytesServed += body.length;
    response.end(body);
  }

  function getFile(request: IncomingMessage, response: ServerResponse, url: URL, id: string): void {
    const node = drive.get(id);
    // As in Drive, only what is deleted for good is not found: a trashed file still downloads by id.
    if (!node) return driveError(response, 404, 'notFound', `File not found: ${id}.`);
    if (url.searchParams.get('alt') === 'media') return media(request, response, node);
    sendJson(response, 200, fileResource(drive, node));
  }

  const server = await startFakeServer(async (request, response, url) => {
    if (await oauth.handle(request, response, url)) return;
    const account = oauth.authenticate(request);
    if (account === null)
      return driveError(response, 401, 'authError', 'Invalid Credentials', { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' });
    if (request.method !== 'GET') return driveError(response, 405, 'methodNotAllowed', 'The fake serves GET only');
    const path = url.pathname;
    if (path === '/about') {
      const email = account.includes('@') ? account : `${account}@example.com`;
      return sendJson(response, 200, {
        kind: 'drive#about',
        user: { kind: 'drive#user', displayName: account, emailAddress: email, permissionId: `perm-${account}`, me: true },
      });
    }
    if (path === '/files') return listFiles(drive, response, url, limit);
    if (path === '/changes/startPageToken') return sendJson(response, 200, { kind: 'drive#startPageToken', startPageToken: String(drive.startPageToken) });
    if (path === '/changes') return listChanges(drive, response, url, limit);
    const file = /^\/files\/([^/]+)$/.exec(path);
    if (file) return getFile(request, response, url, decodeURIComponent(file[1]!));
    driveError(response, 404, 'notFound', `Not Found: ${path}`);
  }, options.port);

  return {
    server,
    oauth,
    url: server.url,
    config: fakeProviderConfig(oauth, server.url),
    addFolder: (path) => drive.folder(path).id,
    addFile: (path, bytes, modifiedAt) => drive.file(path, bytes, modifiedAt).id,
    removePath: (path) => drive.remove(path),
    move: (from, to) => drive.move(from, to),
    get bytesServed() {
      return bytesServed;
    },
    close: () => server.close(),
  };
}
