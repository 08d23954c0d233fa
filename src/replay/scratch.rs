//! One buffer per thread and game for the parsed moves of a replay, so that
//! a replay allocates none once the thread has replayed a game of its kind.

use std::any::Any;
use std::cell::RefCell;

/// Moves a kept buffer holds room for at most (a larger game's room is
/// let go).
const KEPT: usize = 4096;

thread_local! {
    /// The buffers, one per element type (a few games: a short list).
    static KEPT_BUFFERS: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// This thread's buffer of `T`s (empty), or a new one.
pub fn take<T: 'static>() -> Vec<T> {
    KEPT_BUFFERS
        .with(|kept| {
            let mut kept = kept.try_borrow_mut().ok()?;
            kept.iter_mut()
                .find_map(|b| b.downcast_mut::<Vec<T>>())
                .map(std::mem::take)
        })
        .unwrap_or_default()
}

/// Hands a buffer back (emptied) for the thread's next replay of its kind.
pub fn give<T: 'static>(mut v: Vec<T>) {
    if v.capacity() > KEPT {
        return;
    }
    v.clear();
    KEPT_BUFFERS.with(|kept| {
        let Ok(mut kept) = kept.try_borrow_mut() else {
            return;
        };
        match kept.iter_mut().find_map(|b| b.downcast_mut::<Vec<T>>()) {
            Some(slot) => *slot = v,
            None => kept.push(Box::new(v)),
        }
    });
}
