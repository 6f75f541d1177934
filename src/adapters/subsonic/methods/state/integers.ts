import type { SubsonicParams } from '../../method.ts';
import { parseInteger } from '../../params.ts';

/** Every value of a repeatable integer parameter, undefined where one is malformed (Navidrome skips or defaults those). */
export function integers(params: SubsonicParams, name: string): (number | undefined)[] {
  return params.all(name).map(parseInteger);
}
