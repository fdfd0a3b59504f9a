//! The 95% confidence interval of a mean difference from paired games: mean ± t·sd/√n, with t the
//! 97.5% quantile of Student's t with n − 1 degrees of freedom.

use super::hist::Hist;

/// t(0.975, df) for df = 1..=30.
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The 97.5% quantile of Student's t with `df` degrees of freedom: the table up to 30, then the
/// Cornish–Fisher expansion around the normal quantile (error below 1e-4 from 30 on).
pub(crate) fn t975(df: u64) -> f64 {
    if df == 0 {
        return f64::INFINITY;
    }
    if df <= 30 {
        return T975[df as usize - 1];
    }
    let z: f64 = 1.959_963_984_540_054;
    let v = df as f64;
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / (384.0 * v.powi(3))
}

/// A mean difference with its 95% interval and whether the interval excludes 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Interval {
    pub(crate) mean: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) significant: bool,
}

/// The interval for paired differences counted in `d` (in units of 1/`scale`).
pub(crate) fn interval(d: &Hist, scale: f64) -> Interval {
    let n = d.n();
    let mean = d.mean() / scale;
    if n < 2 {
        return Interval {
            mean,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            significant: false,
        };
    }
    let half = t975(n - 1) * d.sd() / scale / (n as f64).sqrt();
    // Every difference the same: the interval is that value alone; it excludes 0 unless it is 0.
    let (lo, hi) = (mean - half, mean + half);
    Interval {
        mean,
        lo,
        hi,
        significant: lo > 0.0 || hi < 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles() {
        assert_eq!(t975(1), 12.706);
        assert!((t975(40) - 2.021).abs() < 1e-3); // tables: 2.0211
        assert!((t975(120) - 1.980).abs() < 1e-3); // tables: 1.9799
        assert!((t975(1_000_000) - 1.95996).abs() < 1e-4);
    }

    #[test]
    fn interval_by_hand() {
        let mut d = Hist::default();
        for v in [1, 2, 3, 4] {
            d.add(v);
        }
        // mean 2.5, sd √(5/3) = 1.29099, t(3) = 3.182: half-width 3.182·1.29099/2 = 2.05397
        let i = interval(&d, 1.0);
        assert!((i.mean - 2.5).abs() < 1e-12);
        assert!((i.lo - (2.5 - 2.05397)).abs() < 1e-4);
        assert!(i.significant);
        let mut z = Hist::default();
        for _ in 0..10 {
            z.add(0);
        }
        let i = interval(&z, 1.0);
        assert_eq!((i.mean, i.lo, i.hi, i.significant), (0.0, 0.0, 0.0, false));
    }
}
