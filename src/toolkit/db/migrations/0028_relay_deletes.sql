-- Deleting a play relays the deletion (core/relay): a target that was sent the play is asked to
-- delete it, through the same outbox, written by a trigger in the deleting transaction, so every
-- path that deletes plays (the API, ListenBrainz delete-listen, Last.fm library.removeScrobble,
-- Maloja delete_scrobble, and any added later) relays it, and only once it is committed.

-- What a row asks of the target: the play stored ('scrobble'), or its deletion ('delete').
alter table relay_outbox add column op text not null default 'scrobble' check (op in ('scrobble', 'delete'));

-- A play and its deletion are one row each per target. The key leads with the play, which is how a
-- deletion finds what was sent for it.
alter table relay_outbox drop constraint relay_outbox_once;
alter table relay_outbox add constraint relay_outbox_once unique (user_id, scrobble_id, target_id, op);

-- For each deleted play and target:
--   * not sent (queued, refused, dead): the row goes, and nothing is sent, deletion or play.
--   * sent (delivered), or being sent now (queued under a live lease): a deletion is queued with
--     what was sent (the sender holds it back until a send in flight is settled). Not for
--     Last.fm, whose API deletes nothing.
-- In this order: the first statement waits for a sender claiming one of the rows at that moment,
-- and then leaves it to that sender, so the second, which sees the claim, queues its deletion.
-- Not when the account itself is being deleted (its user row is gone before its plays, and its
-- targets and outbox go with it).
create function relay_outbox_plays_deleted() returns trigger language plpgsql as $$
begin
  delete from relay_outbox o using old_rows d
    where o.user_id = d.user_id and o.scrobble_id = d.id and o.op = 'scrobble'
      and o.state <> 'delivered' and not (o.state = 'queued' and coalesce(o.lease_until > now(), false));
  insert into relay_outbox (user_id, target_id, scrobble_id, op, payload)
    select o.user_id, o.target_id, o.scrobble_id, 'delete', o.payload
    from old_rows d
    join relay_outbox o on o.user_id = d.user_id and o.scrobble_id = d.id and o.op = 'scrobble'
    join relay_targets t on t.user_id = o.user_id and t.id = o.target_id
    where t.kind <> 'lastfm'
      and (o.state = 'delivered' or (o.state = 'queued' and coalesce(o.lease_until > now(), false)))
      and exists (select 1 from users u where u.id = d.user_id)
    on conflict on constraint relay_outbox_once do nothing;
  return null;
end $$;

create trigger scrobbles_relay_deleted after delete on scrobbles referencing old table as old_rows
  for each statement execute function relay_outbox_plays_deleted();
