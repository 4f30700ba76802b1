//! A sorted-vector map with the part of `BTreeMap`'s interface the rules use.
//!
//! The engine keeps a handful of entries per map (namespaces, balances, statuses). Every distinct
//! `BTreeMap<K, V>` compiles its own copy of the B-tree code, several kilobytes of WebAssembly each;
//! a sorted `Vec` with binary search does the same job in a few hundred bytes and iterates in the
//! same (key) order.

use std::borrow::Borrow;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VecMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap(Vec::new())
    }
}

impl<K: Ord, V> VecMap<K, V> {
    pub fn new() -> Self {
        VecMap(Vec::new())
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Inserts or replaces; returns the previous value.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// The value for `key`, inserted with `make` when missing.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, make()));
                i
            }
        };
        &mut self.0[i].1
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }
}

impl<K, V> VecMap<K, V> {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&mut self) {
        self.0.clear()
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.0.iter_mut().map(|(_, v)| v)
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v))
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut m = VecMap::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;
    /// Panics when the key is missing, as `BTreeMap` does.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for this key")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    proptest! {
        /// Any sequence of inserts and removes leaves the same content, in the same order, as a BTreeMap.
        #[test]
        fn behaves_like_a_btreemap(ops in proptest::collection::vec((any::<bool>(), 0u8..20, any::<u16>()), 0..200)) {
            let mut ours = VecMap::new();
            let mut theirs = BTreeMap::new();
            for (insert, k, v) in ops {
                if insert {
                    prop_assert_eq!(ours.insert(k, v), theirs.insert(k, v));
                } else {
                    prop_assert_eq!(ours.remove(&k), theirs.remove(&k));
                }
                prop_assert_eq!(ours.get(&k), theirs.get(&k));
            }
            prop_assert!(ours.iter().eq(theirs.iter()));
            prop_assert_eq!(ours.len(), theirs.len());
        }
    }

    #[test]
    fn get_or_insert_with_inserts_once_in_order() {
        let mut m: VecMap<String, u32> = VecMap::new();
        *m.get_or_insert_with("b".into(), || 1) += 1;
        *m.get_or_insert_with("a".into(), || 5) += 1;
        *m.get_or_insert_with("b".into(), || 100) += 1;
        assert_eq!(m.iter().map(|(k, v)| (k.as_str(), *v)).collect::<Vec<_>>(), [("a", 6), ("b", 3)]);
        assert_eq!(m["b"], 3);
    }
}
