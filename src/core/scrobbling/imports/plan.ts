import fs from 'node:fs/promises';
import path from 'node:path';
import { DETECTION_TRIED, detectKind } from './detect.ts';
import { isExportFileName, naturalOrder, ZIP_ENTRIES_LOOKED_FOR } from './entries.ts';
import type { ImportFormat } from './schemas.ts';
import { fileSource, openZipArchive, openZipFile, verifiedMembers, type ImportSource, type ZipArchive, type ZipOpener } from './sources.ts';

export interface PlannedImport {
  source: ImportSource;
  format: ImportFormat;
}

export interface ImportPlan {
  imports: PlannedImport[];
  /** Files of a folder that are not exports (or not of the named format), and why. */
  skipped: { path: string; reason: string }[];
  /** Closes the archives the imports read from: each stays open, once, until the import is done. */
  close(): void;
}

interface Planning {
  plan: ImportPlan;
  /** The archives opened so far, closed by the plan. */
  archives: ZipArchive[];
  openZip: ZipOpener;
}

/** A file named on the command line that cannot be imported: nothing is sent for any of them. */
export class ImportPlanError extends Error {}

/** Enough of a file to see its first record, header or magic bytes. */
const HEAD_BYTES = 64 * 1024;

/** The first bytes of a file, for detectKind. */
async function fileHead(file: string): Promise<Uint8Array> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function folderFiles(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && isExportFileName(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort(naturalOrder);
}

/**
 * The imports of one file: itself, or an archive's entries of listens, each
 * verified before anything is imported. A named format wins over detection
 * for a file; in a folder or an archive it picks the files of that format.
 */
async function planFile(file: string, named: ImportFormat | undefined, inFolder: boolean, { plan, archives, openZip }: Planning): Promise<void> {
  const skip = (reason: string) => {
    if (!inFolder) throw new ImportPlanError(`${file}: ${reason}`);
    plan.skipped.push({ path: file, reason });
  };
  const kind = await detectKind(await fileHead(file));
  if (kind === 'zip') {
    const archive = await openZipArchive(file, openZip);
    archives.push(archive);
    const members = archive.members.filter((member) => !named || member.format === named);
    if (members.length === 0) return skip(`no ${named ? `${named} ` : ''}entries with listens in the archive (looked for ${ZIP_ENTRIES_LOOKED_FOR})`);
    plan.imports.push(...(await verifiedMembers(members)));
    return;
  }
  if (named && (!inFolder || kind === named)) plan.imports.push({ source: fileSource(file), format: named });
  else if (named) skip(kind ? `a ${kind} file, not ${named}` : 'not a known export');
  else if (kind) plan.imports.push({ source: fileSource(file), format: kind });
  else skip(`cannot tell its format; looked for ${DETECTION_TRIED}. Name the format: earshot import <format> FILE`);
}

/** The imports of one path named on the command line: a file, or a folder's export files. */
async function planPath(given: string, named: ImportFormat | undefined, planning: Planning): Promise<void> {
  const stat = await fs.stat(given).catch((error: NodeJS.ErrnoException) => {
    throw new ImportPlanError(`cannot read ${given}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  if (stat.isDirectory()) {
    for (const file of await folderFiles(given)) await planFile(file, named, true, planning);
  } else if (stat.isFile()) {
    await fs.access(given, fs.constants.R_OK).catch((error: Error) => {
      throw new ImportPlanError(`cannot read ${given}: ${error.message}`);
    });
    await planFile(given, named, false, planning);
  } else throw new ImportPlanError(`cannot read ${given}: not a regular file or folder`);
}

/** What `earshot import [format] <file|folder>...` will import, in order, before anything is sent. */
export async function planImports(paths: readonly string[], named: ImportFormat | undefined, openZip: ZipOpener = openZipFile): Promise<ImportPlan> {
  const archives: ZipArchive[] = [];
  const plan: ImportPlan = { imports: [], skipped: [], close: () => archives.forEach((archive) => archive.close()) };
  try {
    for (const given of paths) await planPath(given, named, { plan, archives, openZip });
  } catch (error) {
    plan.close();
    throw error;
  }
  return plan;
}
