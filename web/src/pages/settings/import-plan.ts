/**
 * What the web import will import, before anything is sent, as `earshot import` plans it
 * (src/core/scrobbling/imports/plan.ts): a folder's export files in path order, each file's kind
 * told by its first bytes with the same detection, and a zip's entries that hold listens (the
 * same entry rules) in path order, every one read through and checked before any is imported, so
 * a damaged archive stores nothing. A chosen file that is no export refuses the whole import, as a
 * file named on the command line does; a folder's stray files are skipped with the reason.
 */
import { DETECTION_TRIED, detectKind } from '../../../../src/core/scrobbling/imports/detect.ts';
import { isExportFileName, naturalOrder, ZIP_ENTRIES_LOOKED_FOR, zipEntryFormat } from '../../../../src/core/scrobbling/imports/entries.ts';
import type { ImportFormat } from '../../../../src/core/scrobbling/imports/schemas.ts';
import { fingerprintOf } from './import-runner.ts';
import { zipEntries, zipEntryContent } from './zip-reader.ts';

/** A file the user gave: on its own, or one of a folder's (its path then starts with the folder's name). */
export interface ChosenFile {
  path: string;
  file: Blob;
  inFolder: boolean;
}

/** One import of the plan: a file, or one entry of a zip archive. */
export interface PlannedImport {
  label: string;
  format: ImportFormat;
  /** Bytes of its content (an entry's uncompressed size). */
  bytes: number;
  /** Its content, read again for each use (an entry is inflated each time). */
  content(): Promise<Blob>;
  /** Taken when its archive was checked: a zip entry's SHA-256. */
  fingerprint?: string;
}

export interface ImportPlan {
  imports: PlannedImport[];
  skipped: { path: string; reason: string }[];
}

/** The chosen file cannot be imported: nothing of the choice is. */
export class ImportPlanError extends Error {}

/** Enough of a file to see its first record, header or magic bytes (as the command line reads). */
const HEAD_BYTES = 64 * 1024;

/** A folder's files a walk looks at, in path order: `earshot import FOLDER` takes the same ones. */
export function folderSelection(files: ChosenFile[]): ChosenFile[] {
  return files.filter((chosen) => isExportFileName(chosen.path)).sort((a, b) => naturalOrder(a.path, b.path));
}

/** A zip's entries that hold listens (of the named format, when one is), in path order, each read through and fingerprinted. */
async function zipImports(zip: ChosenFile, named: ImportFormat | undefined): Promise<PlannedImport[]> {
  const fail = (error: unknown): never => {
    throw new ImportPlanError(`${zip.path}: ${error instanceof Error ? error.message : String(error)}; nothing was imported`);
  };
  const entries = await zipEntries(zip.file).catch(fail);
  const members = entries
    .flatMap((entry) => {
      const format = zipEntryFormat(entry.name);
      return format && (!named || format === named) ? [{ entry, format }] : [];
    })
    .sort((a, b) => naturalOrder(a.entry.name, b.entry.name));
  const imports: PlannedImport[] = [];
  for (const { entry, format } of members) {
    const fingerprint = await fingerprintOf(await zipEntryContent(zip.file, entry).catch(fail));
    imports.push({ label: `${zip.path}/${entry.name}`, format, bytes: entry.size, content: () => zipEntryContent(zip.file, entry), fingerprint });
  }
  return imports;
}

async function planFile(chosen: ChosenFile, named: ImportFormat | undefined, plan: ImportPlan): Promise<void> {
  const skip = (reason: string) => {
    if (!chosen.inFolder) throw new ImportPlanError(`${chosen.path}: ${reason}`);
    plan.skipped.push({ path: chosen.path, reason });
  };
  const kind = await detectKind(new Uint8Array(await chosen.file.slice(0, HEAD_BYTES).arrayBuffer()));
  if (kind === 'zip') {
    const members = await zipImports(chosen, named);
    if (members.length === 0) return skip(`no ${named ? `${named} ` : ''}entries with listens in the archive (looked for ${ZIP_ENTRIES_LOOKED_FOR})`);
    plan.imports.push(...members);
    return;
  }
  const file = { label: chosen.path, bytes: chosen.file.size, content: async () => chosen.file };
  if (named && (!chosen.inFolder || kind === named)) plan.imports.push({ ...file, format: named });
  else if (named) skip(kind ? `a ${kind} file, not ${named}` : 'not a known export');
  else if (kind) plan.imports.push({ ...file, format: kind });
  else skip(`cannot tell its format; looked for ${DETECTION_TRIED}. Choose the format above`);
}

/** The plan for the chosen files, in the order given (a folder's already in selection order). */
export async function planImports(chosen: readonly ChosenFile[], named?: ImportFormat): Promise<ImportPlan> {
  const plan: ImportPlan = { imports: [], skipped: [] };
  for (const file of chosen) await planFile(file, named, plan);
  return plan;
}
