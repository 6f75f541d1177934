/**
 * The dry run's rule for repeats, one for every scope a dry run spans: a listen counts as a
 * duplicate when the same play (same song, same instant) is stored already or was counted as
 * stored earlier in the same run. previewListens applies it within a batch; the server previews
 * each batch alone, so the importing client applies it again across the batches and files of one
 * command, with the claims each batch's answer names. Memory grows by one short key per play
 * counted as stored.
 */
export class PlayClaims {
  readonly #claimed = new Set<string>();

  /** 'duplicate' for a play stored already or claimed before; either way it is claimed from now on. */
  claim(key: string, alreadyStored = false): 'stored' | 'duplicate' {
    const duplicate = alreadyStored || this.#claimed.has(key);
    this.#claimed.add(key);
    return duplicate ? 'duplicate' : 'stored';
  }
}

/** A dry-run batch's answer as the importing client reads it. */
interface PreviewCounts {
  stored: number;
  duplicate: number;
  newSongs?: number | undefined;
  claims?: { key: string; newSong: boolean }[] | undefined;
}

/**
 * A dry-run batch's counts with its plays claimed across the whole run: the server previewed the
 * batch alone, so a play it counts as stored that an earlier batch or file claimed is a duplicate.
 * Pure, so `earshot import` and the web app's import count a preview alike.
 */
export function claimAcrossRun<T extends PreviewCounts>(result: T, claims: PlayClaims): T {
  const repeats = (result.claims ?? []).filter((claim) => claims.claim(claim.key) === 'duplicate');
  const newSongs = (result.newSongs ?? 0) - repeats.filter((claim) => claim.newSong).length;
  return { ...result, stored: result.stored - repeats.length, duplicate: result.duplicate + repeats.length, newSongs };
}
