/** The `app.svc.session` group: the Last.fm and Audioscrobbler sessions a user granted to scrobbling clients. */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { DateTime, Empty, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { listScrobblerSessions, revokeScrobblerSession, type ScrobblerSession } from '../../core/scrobbling/scrobbler-sessions.ts';

const ScrobblerSessionView = Type.Object({
  id: Uuid(),
  kind: Type.Union([Type.Literal('lastfm'), Type.Literal('audioscrobbler')]),
  application: Type.String({ description: 'Name of the API key the session was granted to' }),
  applicationOwner: Type.String({ description: "Handle of that API key's owner, who may be another user" }),
  createdAt: DateTime(),
  lastUsedAt: Type.Union([DateTime(), Type.Null()], { description: 'Tracked for Last.fm sessions' }),
  expiresAt: Type.Union([DateTime(), Type.Null()], { description: 'Audioscrobbler sessions last 24 hours; Last.fm sessions never expire' }),
});

const iso = (date: Date | null) => date && isoDateTime(date);

function sessionView(session: ScrobblerSession) {
  return { ...session, createdAt: isoDateTime(session.createdAt), lastUsedAt: iso(session.lastUsedAt), expiresAt: iso(session.expiresAt) };
}

const getScrobblerSessions = defineQuery({
  nsid: 'app.svc.session.getScrobblerSessions',
  summary: "List the Last.fm and Audioscrobbler sessions the caller granted, to their own or anyone's API keys (no secrets)",
  auth: 'account',
  output: Type.Object({ sessions: Type.Array(ScrobblerSessionView) }),
  async handler({ viewer, ctx }) {
    return { sessions: (await listScrobblerSessions(ctx.db, viewer.userId)).map(sessionView) };
  },
});

const revokeScrobblerSessionOperation = defineProcedure({
  nsid: 'app.svc.session.revokeScrobblerSession',
  summary: 'End one of the caller’s Last.fm or Audioscrobbler sessions; the client is refused from its next call',
  auth: 'account',
  input: Type.Object({ id: Uuid() }),
  output: Empty,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    await revokeScrobblerSession(ctx.db, viewer.userId, input.id);
    return {};
  },
});

export const sessionOperations = [getScrobblerSessions, revokeScrobblerSessionOperation];
