export { registerLastfm } from './routes.ts';
// Shared with Audioscrobbler 1.2, Last.fm's older protocol: form parameters, credentials, sessions.
export { digestsEqual, newRandomKey } from './credentials.ts';
export {
  acceptFormBodies,
  indexedGroups,
  InvalidParameter,
  MAX_DURATION_SECONDS,
  musicBrainzId,
  optionalCount,
  optionalText,
  requestParams,
  requiredParam,
  requireStorable,
  type Params,
} from './params.ts';
export { findLastfmSession } from './sessions.ts';
