/** The authenticated caller of a request. */
export interface Viewer {
  userId: string;
  did: string;
  handle: string;
  credential: 'session' | 'access-token' | 'api-key';
}
