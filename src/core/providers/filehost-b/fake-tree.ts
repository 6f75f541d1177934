/**
 * The fake filehostB's files: a tree keyed by lower-cased path (Dropbox paths are
 * case-insensitive) that keeps the case each name was created with, and the log of changes a
 * list_folder cursor is a position in.
 */
import { randomBytes } from 'node:crypto';
import type { DeletedMetadata, FileMetadata, FolderMetadata, Metadata } from './wire.ts';

interface FolderNode {
  kind: 'folder';
  id: string;
  /** Absolute, in display case: '/Music/Rock'. */
  display: string;
}

interface FileNode {
  kind: 'file';
  id: string;
  display: string;
  bytes: Uint8Array;
  clientModified: Date;
  serverModified: Date;
  rev: number;
}

export type Node = FolderNode | FileNode;

/** '/'-led without a trailing '/'; '' is the root. */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

const keyOf = (path: string) => normalizePath(path).toLowerCase();
const depth = (path: string) => path.split('/').length;
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
/** Whether the lower-cased `path` is `root` or below it. */
const within = (path: string, root: string) => root === '' || path === root || path.startsWith(`${root}/`);
/** Dropbox's timestamps are UTC to the second. */
const stamp = (date: Date) => date.toISOString().replace(/\.\d+Z$/, 'Z');
const toSecond = (date: Date) => Math.floor(date.getTime() / 1000) * 1000;

export function metadata(node: Node): FolderMetadata | FileMetadata {
  const common = { name: nameOf(node.display), id: node.id, path_lower: node.display.toLowerCase(), path_display: node.display };
  if (node.kind === 'folder') return { '.tag': 'folder', ...common };
  return {
    '.tag': 'file',
    ...common,
    size: node.bytes.length,
    client_modified: stamp(node.clientModified),
    server_modified: stamp(node.serverModified),
    rev: node.rev.toString(16).padStart(9, '0'),
    is_downloadable: true,
  };
}

function deleted(display: string): DeletedMetadata {
  return { '.tag': 'deleted', name: nameOf(display), path_lower: display.toLowerCase(), path_display: display };
}

export class FakeTree {
  private readonly nodes = new Map<string, Node>();
  /** Every change as list_folder/continue reports it, oldest first. */
  private readonly log: Metadata[] = [];
  private revs = 0;

  get logLength(): number {
    return this.log.length;
  }

  /** By path (any case) or by id ('id:...'); the root ('') is no node. */
  resolve(pathOrId: string): Node | undefined {
    if (pathOrId.startsWith('id:')) return [...this.nodes.values()].find((node) => node.id === pathOrId);
    return this.nodes.get(keyOf(pathOrId));
  }

  addFolder(path: string): FolderNode {
    const existing = this.resolve(path);
    if (existing?.kind === 'file') throw new Error(`${path} is a file`);
    if (existing) return existing;
    const display = normalizePath(path);
    if (display === '') throw new Error('the root is no folder to add');
    return this.insert({ kind: 'folder', id: newId(), display: this.under(display) });
  }

  /** A new file, or new content for an existing one (same id, later server_modified, new rev). */
  addFile(path: string, bytes: Uint8Array, modifiedAt?: Date): FileNode {
    const existing = this.resolve(path);
    if (existing?.kind === 'folder') throw new Error(`${path} is a folder`);
    // Seconds, as Dropbox keeps them; content replaced within the second still gets a later
    // server_modified, so a sync that compares it sees the change.
    const serverModified = new Date(modifiedAt ? toSecond(modifiedAt) : Math.max(toSecond(new Date()), (existing?.serverModified.getTime() ?? 0) + 1000));
    const file: FileNode = {
      kind: 'file',
      id: existing?.id ?? newId(),
      display: existing?.display ?? this.under(normalizePath(path)),
      bytes,
      clientModified: serverModified,
      serverModified,
      rev: ++this.revs,
    };
    return this.insert(file);
  }

  remove(path: string): void {
    const node = this.mustResolve(path);
    this.takeSubtree(node);
    this.log.push(deleted(node.display));
  }

  /** Dropbox reports a move as the old path deleted and everything at the new one added, ids kept. */
  move(from: string, to: string): void {
    const node = this.mustResolve(from);
    const target = this.resolve(to);
    if (target && target !== node) throw new Error(`${to} exists`);
    if (within(keyOf(to), node.display.toLowerCase()) && keyOf(to) !== node.display.toLowerCase()) throw new Error(`${to} is inside ${from}`);
    const subtree = this.takeSubtree(node);
    this.log.push(deleted(node.display));
    const oldPrefix = node.display;
    const newPrefix = this.under(normalizePath(to));
    for (const moved of subtree) this.insert({ ...moved, display: newPrefix + moved.display.slice(oldPrefix.length) });
  }

  /** Everything at or below the lower-cased `root`, parents first. */
  listing(root: string): Metadata[] {
    const nodes = [...this.nodes.values()].filter((node) => within(node.display.toLowerCase(), root));
    return nodes.sort((a, b) => depth(a.display) - depth(b.display)).map(metadata);
  }

  /** The changes at or below the lower-cased `root` from log position `from` on. */
  changesSince(from: number, root: string): Metadata[] {
    return this.log.slice(from).filter((entry) => within(entry.path_lower, root));
  }

  /** `display` with its parent folders created and their existing case used. */
  private under(display: string): string {
    const parent = parentOf(display);
    return `${parent === '' ? '' : this.addFolder(parent).display}/${nameOf(display)}`;
  }

  private insert<N extends Node>(node: N): N {
    this.nodes.set(node.display.toLowerCase(), node);
    this.log.push(metadata(node));
    return node;
  }

  private mustResolve(path: string): Node {
    const node = this.resolve(path);
    if (!node) throw new Error(`${path} does not exist`);
    return node;
  }

  /** Removes `node` and everything below it, returning them parents first. */
  private takeSubtree(node: Node): Node[] {
    const root = node.display.toLowerCase();
    const subtree = [...this.nodes.entries()].filter(([key]) => within(key, root));
    for (const [key] of subtree) this.nodes.delete(key);
    return subtree.map(([, entry]) => entry).sort((a, b) => depth(a.display) - depth(b.display));
  }
}

const newId = () => `id:${randomBytes(11).toString('base64url')}`;
