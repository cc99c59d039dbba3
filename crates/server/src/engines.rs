//! The computer players' resources shared by every room: the search memory kept between
//! turns ([`EngineCache`], bounded in bytes) and the queues searches wait in ([`Searches`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ply_search::{AnyEngine, Think};
use tokio::sync::Semaphore;

/// The search memory of computer players, by game id, within a budget of bytes.
#[derive(Default)]
pub struct EngineCache {
    budget: usize,
    inner: Mutex<EngineLru>,
}

#[derive(Default)]
struct EngineLru {
    clock: u64,
    total: usize,
    entries: HashMap<String, (u64, usize, Box<dyn AnyEngine>)>,
}

impl std::fmt::Debug for EngineCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f.debug_struct("EngineCache")
            .field("budget", &self.budget)
            .field("engines", &inner.entries.len())
            .field("bytes", &inner.total)
            .finish()
    }
}

impl EngineCache {
    /// A cache keeping at most `budget` bytes of search memory.
    #[must_use]
    pub fn new(budget: usize) -> EngineCache {
        EngineCache { budget, inner: Mutex::default() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, EngineLru> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn take(&self, id: &str) -> Option<Box<dyn AnyEngine>> {
        let mut inner = self.lock();
        let (_, bytes, engine) = inner.entries.remove(id)?;
        inner.total -= bytes;
        Some(engine)
    }

    pub(crate) fn put(&self, id: &str, engine: Box<dyn AnyEngine>) {
        let bytes = engine.memory_bytes();
        let mut inner = self.lock();
        inner.clock += 1;
        let stamp = inner.clock;
        if let Some((_, old, _)) = inner.entries.insert(id.to_string(), (stamp, bytes, engine)) {
            inner.total -= old;
        }
        inner.total += bytes;
        while inner.total > self.budget {
            let Some(oldest) =
                inner.entries.iter().min_by_key(|(_, (s, _, _))| *s).map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some((_, b, _)) = inner.entries.remove(&oldest) {
                inner.total -= b;
            }
        }
    }

    pub(crate) fn forget(&self, id: &str) {
        let mut inner = self.lock();
        if let Some((_, b, _)) = inner.entries.remove(id) {
            inner.total -= b;
        }
    }

    /// Engines kept and their bytes.
    #[must_use]
    pub fn usage(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.entries.len(), inner.total)
    }
}

/// The computer's searches, in two queues so a short search never waits behind long ones:
/// node-limited levels (1–9, and hints) take milliseconds; time-limited level 10 takes a
/// second a turn. Each queue is first come, first served; long searches get one core fewer
/// than there are (at least one), so short ones always find a core.
#[derive(Debug)]
pub struct Searches {
    short: Arc<Semaphore>,
    long: Arc<Semaphore>,
}

impl Searches {
    /// Queues for a machine with `cores` cores.
    #[must_use]
    pub fn new(cores: usize) -> Searches {
        Searches {
            short: Arc::new(Semaphore::new(cores.max(1))),
            long: Arc::new(Semaphore::new(cores.saturating_sub(1).max(1))),
        }
    }

    /// The queue of a search with these settings.
    pub(crate) fn queue(&self, think: &Think) -> Arc<Semaphore> {
        if think.limits.time.is_some() { self.long.clone() } else { self.short.clone() }
    }
}
