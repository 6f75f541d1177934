/**
 * The state behind the fake filehostA: one drive of folders and files by id, as Drive keeps
 * them (a name and a parent each, so a move changes one record and the subtree follows), and a
 * change log whose positions are the page tokens changes.list hands out.
 */
import { randomBytes } from 'node:crypto';

export const FOLDER_MIME = 'application/vnd.google-apps.folder';

export interface DriveNode {
  id: string;
  name: string;
  mimeType: string;
  parentId: string | null;
  bytes: Uint8Array | null;
  modifiedTime: Date;
  /** Explicitly trashed; what is below a trashed folder is trashed too (see isTrashed). */
  trashed: boolean;
}

/** Drive guesses a type from the name; '.gdoc' stands for a Google Doc (no bytes to download). */
const MIME_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  jpg: 'image/jpeg',
  png: 'image/png',
  gdoc: 'application/vnd.google-apps.document',
};

const mimeTypeOf = (name: string) => MIME_TYPES[name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';

const newId = () => randomBytes(18).toString('base64url');

function split(path: string): { parent: string; name: string } {
  const segments = path.split('/').filter((segment) => segment !== '');
  const name = segments.pop();
  if (name === undefined) throw new Error(`fake filehostA: ${path} names the root`);
  return { parent: `/${segments.join('/')}`, name };
}

export class FakeDrive {
  readonly root: DriveNode = { id: newId(), name: 'My Drive', mimeType: FOLDER_MIME, parentId: null, bytes: null, modifiedTime: new Date(), trashed: false };
  readonly nodes = new Map<string, DriveNode>([[this.root.id, this.root]]);
  /** The file id of each change; change n (from 1) is at index n - 1. */
  readonly log: string[] = [];

  /** The page token for changes after everything so far. */
  get startPageToken(): number {
    return this.log.length + 1;
  }

  /** A node by id, with Drive's 'root' alias. */
  get(id: string): DriveNode | undefined {
    return this.nodes.get(id === 'root' ? this.root.id : id);
  }

  isTrashed(node: DriveNode): boolean {
    for (let at: DriveNode | undefined = node; at; at = at.parentId === null ? undefined : this.nodes.get(at.parentId)) {
      if (at.trashed) return true;
    }
    return false;
  }

  children(parentId: string): DriveNode[] {
    return [...this.nodes.values()].filter((node) => node.parentId === parentId);
  }

  /** The live (untrashed) node at an absolute path, or undefined. */
  find(path: string): DriveNode | undefined {
    let node: DriveNode | undefined = this.root;
    for (const segment of path.split('/').filter((part) => part !== '')) {
      node = node && this.children(node.id).find((child) => child.name === segment && !child.trashed);
    }
    return node;
  }

  folder(path: string): DriveNode {
    const existing = this.find(path);
    if (existing) {
      if (existing.mimeType !== FOLDER_MIME) throw new Error(`fake filehostA: ${path} is a file`);
      return existing;
    }
    const { parent, name } = split(path);
    return this.create(name, FOLDER_MIME, this.folder(parent).id, null, new Date());
  }

  file(path: string, bytes: Uint8Array, modifiedAt = new Date()): DriveNode {
    const existing = this.find(path);
    if (existing) {
      if (existing.mimeType === FOLDER_MIME) throw new Error(`fake filehostA: ${path} is a folder`);
      existing.bytes = bytes;
      existing.modifiedTime = modifiedAt;
      this.log.push(existing.id);
      return existing;
    }
    const { parent, name } = split(path);
    const mimeType = mimeTypeOf(name);
    return this.create(name, mimeType, this.folder(parent).id, mimeType.startsWith('application/vnd.google-apps.') ? null : bytes, modifiedAt);
  }

  /** A file is deleted for good (changes say removed); a folder is trashed, as Drive's web UI does. */
  remove(path: string): void {
    const node = this.existing(path);
    if (node.mimeType === FOLDER_MIME) node.trashed = true;
    else this.nodes.delete(node.id);
    this.log.push(node.id);
  }

  /** Renames or moves one node; what is below a folder follows it without changes of its own, as in Drive. */
  move(from: string, to: string): void {
    const node = this.existing(from);
    if (this.find(to)) throw new Error(`fake filehostA: ${to} exists`);
    const { parent, name } = split(to);
    const target = this.folder(parent);
    for (let at: DriveNode | undefined = target; at; at = at.parentId === null ? undefined : this.nodes.get(at.parentId)) {
      if (at === node) throw new Error(`fake filehostA: cannot move ${from} into itself`);
    }
    node.parentId = target.id;
    node.name = name;
    this.log.push(node.id);
  }

  private existing(path: string): DriveNode {
    const node = this.find(path);
    if (!node || node === this.root) throw new Error(`fake filehostA: no ${path}`);
    return node;
  }

  private create(name: string, mimeType: string, parentId: string, bytes: Uint8Array | null, modifiedTime: Date): DriveNode {
    const node: DriveNode = { id: newId(), name, mimeType, parentId, bytes, modifiedTime, trashed: false };
    this.nodes.set(node.id, node);
    this.log.push(node.id);
    return node;
  }
}
