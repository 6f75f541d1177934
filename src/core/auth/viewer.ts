export type CredentialKind = 'session' | 'access-token' | 'api-key';

/** The authenticated caller of a request. */
export interface Viewer {
  userId: string;
  did: string;
  handle: string;
  credential: CredentialKind;
  /** The access token's row id when the credential is one: what it creates is recorded against it. */
  accessTokenId?: string | undefined;
  /** The sign-in session's id when the credential is a sign-in token: logging out ends it. */
  sessionId?: string | undefined;
}
