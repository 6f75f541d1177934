/**
 * The files a person gives the import: from the file picker (several files), the folder picker
 * (webkitdirectory: each file carries its path in the folder) or a drop of files and folders
 * (DataTransferItem.webkitGetAsEntry walks a dropped folder). A folder's files are those a
 * command-line walk of it takes, in the same order (folderSelection).
 */
import { folderSelection, type ChosenFile } from './import-plan.ts';

/** Files from an input: a folder picker's carry a relative path, a file picker's do not. */
export function chosenFromInput(files: Iterable<File>): ChosenFile[] {
  const loose: ChosenFile[] = [];
  const inFolder: ChosenFile[] = [];
  for (const file of files) {
    if (file.webkitRelativePath) inFolder.push({ path: file.webkitRelativePath, file, inFolder: true });
    else loose.push({ path: file.name, file, inFolder: false });
  }
  return [...loose, ...folderSelection(inFolder)];
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** Every file under a dropped folder; readEntries answers a part at a time, until an empty part. */
async function folderFiles(folder: FileSystemDirectoryEntry): Promise<ChosenFile[]> {
  const reader = folder.createReader();
  const found: ChosenFile[] = [];
  for (;;) {
    const part = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (part.length === 0) return found;
    for (const entry of part) {
      if (entry.isDirectory) found.push(...(await folderFiles(entry as FileSystemDirectoryEntry)));
      else found.push({ path: entry.fullPath.replace(/^\//, ''), file: await fileOf(entry as FileSystemFileEntry), inFolder: true });
    }
  }
}

/** What was dropped, files and folders in the order dropped. */
export async function chosenFromDrop(data: DataTransfer): Promise<ChosenFile[]> {
  // Entries are taken before anything is awaited: the drop's items are gone once its handler returns.
  const items = Array.from(data.items, (item) => (item.kind === 'file' ? { entry: item.webkitGetAsEntry(), file: item.getAsFile() } : undefined));
  const chosen: ChosenFile[] = [];
  for (const item of items) {
    if (item?.entry?.isDirectory) chosen.push(...folderSelection(await folderFiles(item.entry as FileSystemDirectoryEntry)));
    else if (item?.file) chosen.push({ path: item.file.name, file: item.file, inFolder: false });
  }
  return chosen;
}
