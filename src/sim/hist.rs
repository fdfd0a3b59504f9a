//! An exact histogram of integer observations: counts per value, so that merging two is adding
//! counts, and the mean, deviation and median of a merged histogram are exactly those of one run
//! over all the observations (scores, points and counts are integers; shares are in 60ths).

use std::collections::BTreeMap;

/// Values are counted densely over a window of at most this width; outliers go to a map.
const DENSE_MAX: i64 = 1 << 14;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hist {
    lo: i64,
    dense: Vec<u64>,
    sparse: BTreeMap<i64, u64>,
    n: u64,
}

impl Hist {
    pub(crate) fn n(&self) -> u64 {
        self.n
    }

    /// Adds one observation.
    #[inline]
    pub(crate) fn add(&mut self, v: i64) {
        let i = v.wrapping_sub(self.lo);
        if i >= 0 && (i as usize) < self.dense.len() {
            self.dense[i as usize] += 1;
            self.n += 1;
        } else {
            self.add_n(v, 1);
        }
    }

    /// Adds `count` observations of `v`.
    pub(crate) fn add_n(&mut self, v: i64, count: u64) {
        if count == 0 {
            return;
        }
        self.n += count;
        if self.dense.is_empty() {
            self.lo = v;
            self.dense.push(count);
            return;
        }
        let hi = self.lo + self.dense.len() as i64; // exclusive
        let (new_lo, new_hi) = (self.lo.min(v), hi.max(v.saturating_add(1)));
        if v >= self.lo && v < hi {
            self.dense[(v - self.lo) as usize] += count;
        } else if new_hi.saturating_sub(new_lo) <= DENSE_MAX {
            let mut d = vec![0; (new_hi - new_lo) as usize];
            let off = (self.lo - new_lo) as usize;
            d[off..off + self.dense.len()].copy_from_slice(&self.dense);
            d[(v - new_lo) as usize] += count;
            self.lo = new_lo;
            self.dense = d;
        } else {
            *self.sparse.entry(v).or_insert(0) += count;
        }
    }

    /// Adds every observation of `other`.
    pub fn merge(&mut self, other: &Hist) {
        for (v, c) in other.entries() {
            self.add_n(v, c);
        }
    }

    /// (value, count) for every value seen, in increasing order of value.
    pub(crate) fn entries(&self) -> Vec<(i64, u64)> {
        let mut out: Vec<(i64, u64)> = self
            .dense
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| (self.lo + i as i64, c))
            .collect();
        out.extend(self.sparse.iter().map(|(&v, &c)| (v, c)));
        out.sort_unstable();
        out
    }

    /// The exact sum of the observations.
    pub(crate) fn sum(&self) -> i128 {
        self.entries()
            .iter()
            .map(|&(v, c)| v as i128 * c as i128)
            .sum()
    }

    pub(crate) fn mean(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        self.sum() as f64 / self.n as f64
    }

    /// The sample standard deviation (n − 1 in the denominator), computed from exact sums.
    pub(crate) fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as i128;
        let s = self.sum();
        let mut q = Some(0i128);
        for (v, c) in self.entries() {
            let vv = (v as i128).checked_mul(v as i128);
            q = q
                .zip(vv.and_then(|x| x.checked_mul(c as i128)))
                .and_then(|(q, x)| q.checked_add(x));
        }
        // n·Σv² − (Σv)² is exact in integers; only the final division is floating point
        // (values near the limits of i64 fall back to floating point throughout).
        let num = q
            .and_then(|q| n.checked_mul(q))
            .zip(s.checked_mul(s))
            .map(|(a, b)| (a - b) as f64)
            .unwrap_or_else(|| {
                let m = self.mean();
                let dev: f64 = self
                    .entries()
                    .iter()
                    .map(|&(v, c)| (v as f64 - m).powi(2) * c as f64)
                    .sum();
                dev * n as f64
            });
        (num / (n * (n - 1)) as f64).max(0.0).sqrt()
    }

    /// The median: the middle value, or the mean of the two middle values.
    pub(crate) fn median(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let (a, b) = ((self.n - 1) / 2, self.n / 2);
        let (mut va, mut vb, mut seen) = (None, None, 0u64);
        for (v, c) in self.entries() {
            seen += c;
            if va.is_none() && seen > a {
                va = Some(v);
            }
            if seen > b {
                vb = Some(v);
                break;
            }
        }
        (va.unwrap_or(0) as f64 + vb.unwrap_or(0) as f64) / 2.0
    }

    pub(crate) fn min(&self) -> Option<i64> {
        self.entries().first().map(|e| e.0)
    }

    pub(crate) fn max(&self) -> Option<i64> {
        self.entries().last().map(|e| e.0)
    }

    /// True when every observation is 0 (or there is none).
    pub(crate) fn all_zero(&self) -> bool {
        self.entries().iter().all(|&(v, _)| v == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_by_hand() {
        let mut h = Hist::default();
        for v in [3, 1, 4, 1, 5] {
            h.add(v);
        }
        // sum 14, mean 2.8; deviations² 0.04+3.24+1.44+3.24+4.84 = 12.8, /4 = 3.2
        assert_eq!(h.sum(), 14);
        assert!((h.mean() - 2.8).abs() < 1e-12);
        assert!((h.sd() - 3.2f64.sqrt()).abs() < 1e-12);
        assert_eq!(h.median(), 3.0); // 1 1 3 4 5
        h.add(9); // 1 1 3 4 5 9: (3+4)/2
        assert_eq!(h.median(), 3.5);
        assert_eq!((h.min(), h.max()), (Some(1), Some(9)));
    }

    #[test]
    fn outliers_and_merge_are_exact() {
        let (mut a, mut b, mut all) = (Hist::default(), Hist::default(), Hist::default());
        for (i, v) in [5, -7, 1_000_000_000, 5, i64::MIN / 4, 12]
            .into_iter()
            .enumerate()
        {
            if i % 2 == 0 {
                a.add(v)
            } else {
                b.add(v)
            }
            all.add(v);
        }
        a.merge(&b);
        assert_eq!(a.entries(), all.entries());
        assert_eq!(a.n(), 6);
        assert_eq!(a.median(), 5.0); // MIN/4, -7, 5, 5, 12, 1e9
    }
}
