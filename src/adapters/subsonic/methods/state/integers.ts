import { invalidParameter } from '../../../../core/library/errors.ts';
import type { SubsonicParams } from '../../method.ts';

/** Every value of a repeatable integer parameter; a malformed one is error 0 naming the parameter. */
export function integers(params: SubsonicParams, name: string): number[] {
  return params.all(name).map((value) => {
    if (!/^-?\d{1,15}$/.test(value.trim())) throw invalidParameter(`${name} must be an integer, not "${value}"`);
    return Number(value);
  });
}
