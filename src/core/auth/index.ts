export { authenticate, requireViewer } from './authenticate.ts';
export { authenticateApiKey, sharedSecretFor, API_KEY_PATTERN, type ApiKeyOwner } from './api-keys.ts';
export { deriveKeys, loadServerSecret } from './keys.ts';
export { parseActor, isDid, isHandle, type Actor } from './identifiers.ts';
export { createUser, findUserByActor, isAdmin, setAdmin, type User } from './users.ts';
export { ActorParam, userFromActorParam } from './actor-param.ts';
export type { Viewer } from './viewer.ts';
