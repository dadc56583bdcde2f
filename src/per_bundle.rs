//! A value kept for one bundle at a time, the shape of every per-bundle cache of the views
//! (leaderboard rows, ranking inputs and sections, the bundle's table matcher): asking for
//! another bundle's value starts over from `T::default()`, so memory follows the shown bundle.

use std::sync::Arc;

use runlens_core::bundle::Bundle;

/// A loaded bundle's identity: content hash and address. Applying re-labels makes a new
/// bundle with the same hash, so values derived from labels also key on the address.
pub type Loaded = (String, usize);

/// The identity of `bundle` as loaded (see [`Loaded`]).
pub fn loaded(bundle: &Arc<Bundle>) -> Loaded {
    (bundle.content_hash.clone(), Arc::as_ptr(bundle) as usize)
}

/// `T` for the bundle identified by `K` (a content hash, or [`Loaded`]).
#[derive(Debug, Default)]
pub struct PerBundle<K, T> {
    owner: Option<K>,
    value: T,
}

impl<K: PartialEq, T: Default> PerBundle<K, T> {
    /// The value of `owner`, reset to `T::default()` first when it belongs to another one.
    pub fn of(&mut self, owner: K) -> &mut T {
        if self.owner.as_ref() != Some(&owner) {
            self.owner = Some(owner);
            self.value = T::default();
        }
        &mut self.value
    }
}
