//! Several server nodes on one PostgreSQL database: each node hears the changes the others
//! commit through PostgreSQL's `LISTEN/NOTIFY` (the store announces every committed change on
//! [`ply_store::NOTIFY_CHANNEL`] inside its transaction, so a notification means the change
//! is stored), and the room of that game on this node, if there is one, catches up from the
//! stored events. No broker of our own.

use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::room::Rooms;

/// Follows the other nodes' changes for as long as the server runs: connects (again, after
/// a lost connection, with a pause that grows to 5 s), listens, and hands each notification to
/// the rooms. After every (re)connection every room asks the store whether it missed
/// something, so a lost connection loses no change.
pub async fn follow(rooms: Rooms, url: String) {
    let mut pause = Duration::from_millis(100);
    loop {
        let mut listener = match PgListener::connect(&url).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("listening for other nodes: {e}; again in {pause:?}");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        if let Err(e) = listener.listen(ply_store::NOTIFY_CHANNEL).await {
            tracing::warn!("listening for other nodes: {e}; again in {pause:?}");
            tokio::time::sleep(pause).await;
            continue;
        }
        pause = Duration::from_millis(100);
        rooms.refresh_all();
        loop {
            match listener.try_recv().await {
                Ok(Some(n)) => {
                    let mut parts = n.payload().split(' ');
                    if let (Some(id), Some(Ok(version))) =
                        (parts.next(), parts.next().map(str::parse::<i64>))
                    {
                        rooms.changed(id, version);
                    }
                }
                // The connection was lost; the listener reconnects on the next call, and what
                // was said meanwhile is read from the store.
                Ok(None) => rooms.refresh_all(),
                Err(e) => {
                    tracing::warn!("listening for other nodes: {e}");
                    break;
                }
            }
        }
    }
}
