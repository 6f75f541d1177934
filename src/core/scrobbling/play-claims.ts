import { createHash } from 'node:crypto';

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

/** A play's key as a batch answer names it: 96 bits of its hash, short however long the song's names. */
export const claimKey = (play: string) => createHash('sha256').update(play).digest('base64url').slice(0, 16);
