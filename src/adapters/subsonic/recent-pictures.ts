/** What the pictures kept may weigh together; one larger than `largest` is not kept at all. */
const BUDGET_BYTES = 16 * 1024 * 1024;
const LARGEST_BYTES = 1024 * 1024;

/**
 * Covers already read from library files, kept by the file, the cover it names and the ETag stored
 * with them, so a cover asked for again is one indexed lookup and no file opened (opening one
 * confined is five trips through libuv's thread pool). The key comes from the database, which every
 * process shares: a scan that changes a file's cover clears its ETag, so the next read misses here
 * and reads the new bytes. Until that scan, bytes changed or removed on disk are served as they
 * were read, as the stored ETag already claims; never anything the confined open did not check.
 */
export class RecentPictures<Picture extends { data: Uint8Array }> {
  /** Least recently used first: a Map iterates in insertion order, and a hit moves its entry to the end. */
  readonly #pictures = new Map<string, Picture>();
  #bytes = 0;

  constructor(
    private readonly budget = BUDGET_BYTES,
    private readonly largest = LARGEST_BYTES,
  ) {}

  get(key: string): Picture | undefined {
    const picture = this.#pictures.get(key);
    if (picture) {
      this.#pictures.delete(key);
      this.#pictures.set(key, picture);
    }
    return picture;
  }

  set(key: string, picture: Picture): void {
    if (picture.data.length > this.largest || this.#pictures.has(key)) return;
    this.#pictures.set(key, picture);
    this.#bytes += picture.data.length;
    for (const [oldest, old] of this.#pictures) {
      if (this.#bytes <= this.budget) break;
      this.#pictures.delete(oldest);
      this.#bytes -= old.data.length;
    }
  }
}
