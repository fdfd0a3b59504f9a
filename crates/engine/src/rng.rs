//! Deterministic randomness: a named generator (ChaCha8 from rand_chacha), and our own shuffle and
//! sampling, so that output never depends on another crate's algorithm choices.
//!
//! Reproducibility contract: for a given seed, every value produced here is a fixed function of
//! the ChaCha8 keystream alone. The 32-byte ChaCha key is built by us (the seed, little-endian, in
//! bytes 0..8; bytes 8..32 zero), the nonce/stream and block counter start at zero, `next_u64` is
//! composed here from two `next_u32` words (low word first), and the bounded-integer, shuffle and
//! sampling algorithms are written out in this file. Nothing relies on `rand_core`'s
//! `seed_from_u64` seed expansion or on any `rand` distribution code, so a dependency bump cannot
//! change a game. The unit tests pin the keystream and every derived operation.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// A deterministic random source for games: ChaCha8 keyed directly from a `u64` seed.
#[derive(Clone, Debug)]
pub struct Rng {
    inner: ChaCha8Rng,
}

/// Above this many wanted indices, [`Rng::sample_indices`] always uses a partial Fisher–Yates pass
/// over `0..n` held in `out`; at or below it, it may use Floyd's algorithm (quadratic in `k`).
const FLOYD_MAX_K: usize = 64;

impl Rng {
    /// A generator for `seed`. The ChaCha8 key is `seed.to_le_bytes()` followed by 24 zero bytes;
    /// stream and counter start at zero.
    #[inline]
    pub fn new(seed: u64) -> Rng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        Rng {
            inner: ChaCha8Rng::from_seed(key),
        }
    }

    /// The next 32-bit word of the ChaCha8 keystream (little-endian words, in keystream order).
    #[inline]
    pub(crate) fn next_u32(&mut self) -> u32 {
        self.inner.next_u32()
    }

    /// Two consecutive keystream words, the first as the low half.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let lo = u64::from(self.next_u32());
        let hi = u64::from(self.next_u32());
        lo | (hi << 32)
    }

    /// A uniform value in `0..n`, without bias (Lemire's multiply-and-reject). Returns 0 without
    /// consuming randomness when `n` is 0 (and consumes one word when `n` is 1, like any other `n`).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            // Rejection threshold: 2^32 mod n.
            let t = n.wrapping_neg() % n;
            while (m as u32) < t {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// A uniform value in `0..n` for 64-bit bounds (Lemire, 128-bit product). 0 when `n` is 0.
    #[inline]
    fn below_u64(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let t = n.wrapping_neg() % n;
            while (m as u64) < t {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform index in `0..n`: through [`Rng::below`] whenever `n` fits in a `u32`, so results
    /// are the same on 32- and 64-bit targets.
    #[inline]
    fn index_below(&mut self, n: usize) -> usize {
        match u32::try_from(n) {
            Ok(n32) => self.below(n32) as usize,
            // Only reachable where usize is wider than 32 bits, so the casts are lossless.
            Err(_) => self.below_u64(n as u64) as usize,
        }
    }

    /// A uniform value in `lo..=hi_inclusive`. If `hi_inclusive < lo`, returns `lo` without
    /// consuming randomness. The full range `0..=u32::MAX` takes one raw word.
    #[inline]
    pub fn range(&mut self, lo: u32, hi_inclusive: u32) -> u32 {
        if hi_inclusive < lo {
            return lo;
        }
        match (hi_inclusive - lo).checked_add(1) {
            Some(span) => lo + self.below(span),
            None => self.next_u32(),
        }
    }

    /// True with probability `num / den` (exactly, via [`Rng::below`]). `den == 0` gives false
    /// without consuming randomness; `num >= den` gives true (still consuming one draw).
    #[inline]
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        if den == 0 {
            return false;
        }
        self.below(den) < num
    }

    /// Shuffles `items` uniformly: Fisher–Yates from the end, swapping position `i` with a
    /// position drawn by `below(i + 1)`, for `i` from `len - 1` down to 1.
    #[inline]
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index_below(i + 1);
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, or `None` (consuming nothing) for an empty slice.
    #[inline]
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        let i = self.index_below(items.len());
        items.get(i)
    }

    /// Replaces the contents of `out` with `min(k, n)` distinct indices from `0..n`, in uniformly
    /// random order (every ordered selection equally likely). Allocates nothing except possibly
    /// growing `out`.
    ///
    /// Algorithm (fixed, part of the reproducibility contract): when `k > 64` or `n <= 4 * k`, a
    /// partial Fisher–Yates pass over `0..n` laid out in `out` (position `i` for `i` in `0..k`
    /// swapped with `i + below(n - i)`), then truncation to `k`; otherwise Floyd's algorithm
    /// (for `j` in `n - k..n`: `t = below(j + 1)`, push `t`, or `j` if `t` was already chosen)
    /// followed by [`Rng::shuffle`] of the result.
    pub(crate) fn sample_indices(&mut self, n: usize, k: usize, out: &mut Vec<usize>) {
        out.clear();
        let k = k.min(n);
        if k == 0 {
            return;
        }
        if k > FLOYD_MAX_K || n <= 4 * k {
            out.extend(0..n);
            for i in 0..k {
                let j = i + self.index_below(n - i);
                out.swap(i, j);
            }
            out.truncate(k);
        } else {
            out.reserve(k);
            for j in n - k..n {
                let t = self.index_below(j + 1);
                if out.contains(&t) {
                    out.push(j);
                } else {
                    out.push(t);
                }
            }
            self.shuffle(out);
        }
    }

    /// A child generator for an independent stream, seeded (through [`Rng::new`]) with this
    /// generator's next `u64`.
    #[inline]
    pub fn fork(&mut self) -> Rng {
        Rng::new(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;

    fn words<R: RngCore>(rng: &mut R, count: usize) -> Vec<u32> {
        (0..count).map(|_| rng.next_u32()).collect()
    }

    /// ChaCha8, all-zero 256-bit key and IV: keystream blocks 1 and the start of 2, as published in
    /// draft-strombergson-chacha-test-vectors-01, TC1 (8 rounds), read as little-endian words.
    /// (Block 1 bytes: 3e00ef2f 895f40d6 7f5bb8e8 1f09a5a1 2c840ec3 ce9a7f3b 181be188 ef711a1e
    /// 984ce172 b9216f41 9f445367 456d5619 314a42a3 da86b001 387bfdb8 0e0cfe42; block 2 begins
    /// d2aefa0d eaa5c151 bf0adb6c 01f2a5ad.) `Rng::new(0)` uses exactly this key.
    const CHACHA8_ZERO_KEY: [u32; 20] = [
        0x2fef003e, 0xd6405f89, 0xe8b85b7f, 0xa1a5091f, 0xc30e842c, 0x3b7f9ace, 0x88e11b18,
        0x1e1a71ef, 0x72e14c98, 0x416f21b9, 0x6753449f, 0x19566d45, 0xa3424a31, 0x01b086da,
        0xb8fd7b38, 0x42fe0c0e, 0x0dfaaed2, 0x51c1a5ea, 0x6cdb0abf, 0xada5f201,
    ];

    #[test]
    fn chacha8_keystream_matches_published_vector() {
        let mut raw = ChaCha8Rng::from_seed([0u8; 32]);
        assert_eq!(words(&mut raw, 20), CHACHA8_ZERO_KEY);
        let mut ours = Rng::new(0);
        let got: Vec<u32> = (0..20).map(|_| ours.next_u32()).collect();
        assert_eq!(got, CHACHA8_ZERO_KEY);
    }

    #[test]
    fn chacha8_keystream_for_counting_key_is_pinned() {
        // Key bytes 0, 1, ..., 31; values computed once with rand_chacha 0.3.1 and pinned.
        let mut key = [0u8; 32];
        for (i, b) in (0u8..).zip(key.iter_mut()) {
            *b = i;
        }
        let mut raw = ChaCha8Rng::from_seed(key);
        assert_eq!(
            words(&mut raw, 8),
            [
                0x8fb21540, 0x6aab126e, 0x7b66e8d9, 0x3312c531, 0x27178ff7, 0x4fd9b290, 0xd72e6b32,
                0xcbbebcff,
            ]
        );
    }

    #[test]
    fn chacha20_zero_key_is_rfc7539_block() {
        // RFC 7539 (RFC 8439) appendix A.1, test vector #1: key, nonce and counter all zero.
        const EXPECTED: [u8; 64] = [
            0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90, 0x40, 0x5d, 0x6a, 0xe5, 0x53, 0x86,
            0xbd, 0x28, 0xbd, 0xd2, 0x19, 0xb8, 0xa0, 0x8d, 0xed, 0x1a, 0xa8, 0x36, 0xef, 0xcc,
            0x8b, 0x77, 0x0d, 0xc7, 0xda, 0x41, 0x59, 0x7c, 0x51, 0x57, 0x48, 0x8d, 0x77, 0x24,
            0xe0, 0x3f, 0xb8, 0xd8, 0x4a, 0x37, 0x6a, 0x43, 0xb8, 0xf4, 0x15, 0x18, 0xa1, 0x1c,
            0xc3, 0x87, 0xb6, 0x69, 0xb2, 0xee, 0x65, 0x86,
        ];
        let mut rng = ChaCha20Rng::from_seed([0u8; 32]);
        let mut block = [0u8; 64];
        rng.fill_bytes(&mut block);
        assert_eq!(block, EXPECTED);
        let mut rng = ChaCha20Rng::from_seed([0u8; 32]);
        assert_eq!(
            words(&mut rng, 4),
            [0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653]
        );
    }

    #[test]
    fn new_1_first_words_pinned() {
        let mut r = Rng::new(1);
        let got: Vec<u32> = (0..8).map(|_| r.next_u32()).collect();
        assert_eq!(
            got,
            [
                0xa0e95ecf, 0x61a94a49, 0xedd5053e, 0x4b805b72, 0x65a4f412, 0xcc5a63ee, 0xe81d313a,
                0xea890474,
            ]
        );
    }

    #[test]
    fn next_u64_is_low_word_first() {
        let mut a = Rng::new(1);
        assert_eq!(a.next_u64(), 0x61a94a49_a0e95ecf);
        assert_eq!(a.next_u64(), 0x4b805b72_edd5053e);
        // Agrees with rand_chacha's own composition, including across a block boundary.
        let mut ours = Rng::new(3);
        let mut key = [0u8; 32];
        key[0] = 3;
        let mut raw = ChaCha8Rng::from_seed(key);
        ours.next_u32();
        raw.next_u32();
        for _ in 0..40 {
            assert_eq!(ours.next_u64(), raw.next_u64());
        }
    }

    #[test]
    fn below_6_seed_42_pinned() {
        let mut r = Rng::new(42);
        let got: Vec<u32> = (0..20).map(|_| r.below(6)).collect();
        assert_eq!(
            got,
            [0, 2, 0, 1, 2, 2, 3, 2, 3, 4, 0, 0, 0, 2, 2, 1, 1, 2, 1, 4]
        );
    }

    #[test]
    fn shuffle_seed_7_pinned() {
        let mut r = Rng::new(7);
        let mut v: Vec<u32> = (0..10).collect();
        r.shuffle(&mut v);
        assert_eq!(v, [5, 9, 8, 4, 0, 2, 3, 7, 6, 1]);
    }

    #[test]
    fn sample_indices_pinned() {
        let mut r = Rng::new(5);
        let mut out = vec![99, 98];
        r.sample_indices(100, 5, &mut out); // Floyd branch
        assert_eq!(out, [14, 23, 30, 86, 81]);
        r.sample_indices(10, 4, &mut out); // partial Fisher–Yates branch
        assert_eq!(out, [7, 6, 5, 4]);
        r.sample_indices(3, 9, &mut out); // k > n clamps
        assert_eq!(out, [2, 1, 0]);
        r.sample_indices(0, 3, &mut out);
        assert!(out.is_empty());
        r.sample_indices(5, 0, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn other_operations_pinned() {
        let mut r = Rng::new(9);
        assert_eq!(r.next_u64(), 0x7282fccc29743853);
        let got: Vec<u32> = (0..10).map(|_| r.range(10, 20)).collect();
        assert_eq!(got, [10, 16, 10, 12, 17, 12, 10, 20, 17, 11]);
        let got: Vec<bool> = (0..10).map(|_| r.chance(1, 3)).collect();
        assert_eq!(
            got,
            [false, false, false, false, false, true, false, true, false, false]
        );
        assert_eq!(r.pick(&[10, 20, 30, 40]), Some(&30));
        let mut child = r.fork();
        assert_eq!(child.next_u32(), 0xeddcecfc);
        assert_eq!(r.next_u32(), 0xfd9d9c77);
    }

    #[test]
    fn edge_cases_do_not_panic() {
        let mut r = Rng::new(11);
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
        assert_eq!(r.range(5, 5), 5);
        assert_eq!(r.range(9, 3), 9);
        let _ = r.range(0, u32::MAX);
        assert!(!r.chance(1, 0));
        assert!(r.chance(3, 3));
        assert!(!r.chance(0, 3));
        assert_eq!(r.pick::<u8>(&[]), None);
        let mut empty: [u8; 0] = [];
        r.shuffle(&mut empty);
        let mut one = [1];
        r.shuffle(&mut one);
        assert_eq!(one, [1]);
        for _ in 0..1000 {
            assert!(r.below(u32::MAX) < u32::MAX);
            let x = r.range(u32::MAX - 2, u32::MAX);
            assert!(x >= u32::MAX - 2);
        }
    }

    #[test]
    fn fork_streams_differ_and_are_reproducible() {
        let mut a = Rng::new(100);
        let mut b = Rng::new(100);
        let mut ca = a.fork();
        let mut cb = b.fork();
        let xa: Vec<u32> = (0..8).map(|_| ca.next_u32()).collect();
        let xb: Vec<u32> = (0..8).map(|_| cb.next_u32()).collect();
        assert_eq!(xa, xb);
        let parent: Vec<u32> = (0..8).map(|_| a.next_u32()).collect();
        assert_ne!(xa, parent);
    }

    #[test]
    fn below_3_is_uniform() {
        let mut r = Rng::new(2024);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[r.below(3) as usize] += 1;
        }
        for c in counts {
            assert!((9_400..=10_600).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn shuffle_of_three_is_uniform() {
        let mut r = Rng::new(77);
        let perms = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let mut counts = [0u32; 6];
        for _ in 0..6000 {
            let mut v = [0u8, 1, 2];
            r.shuffle(&mut v);
            if let Some(i) = perms.iter().position(|p| *p == v) {
                counts[i] += 1;
            }
        }
        for c in counts {
            assert!((850..=1150).contains(&c), "{counts:?}");
        }
    }

    fn ordered_pair_counts(r: &mut Rng, n: usize, runs: usize) -> Vec<u32> {
        let mut counts = vec![0u32; n * n];
        let mut out = Vec::new();
        for _ in 0..runs {
            r.sample_indices(n, 2, &mut out);
            assert_eq!(out.len(), 2);
            assert_ne!(out[0], out[1]);
            counts[out[0] * n + out[1]] += 1;
        }
        counts
    }

    #[test]
    fn sample_indices_is_uniform_over_ordered_pairs() {
        let mut r = Rng::new(31);
        // Partial Fisher–Yates branch: 12 ordered pairs, expected 1000 each.
        let counts = ordered_pair_counts(&mut r, 4, 12_000);
        for (i, &c) in counts.iter().enumerate() {
            if i / 4 != i % 4 {
                assert!((850..=1150).contains(&c), "{counts:?}");
            }
        }
        // Floyd branch: 380 ordered pairs, expected 200 each.
        let counts = ordered_pair_counts(&mut r, 20, 76_000);
        for (i, &c) in counts.iter().enumerate() {
            if i / 20 != i % 20 {
                assert!((120..=280).contains(&c), "pair {i}: {c}");
            }
        }
    }
}
