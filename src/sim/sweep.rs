//! Parameter sweeps: `--sweep NAME=A..B[:STEP]` or `--sweep NAME=V1,V2,…`, several of them making a
//! grid. Every point of the grid is one setting of a run; the first point is the reference the
//! others are compared with, game by game (the same seeds under each).

/// The most points a sweep may have: each point plays every game again.
pub(crate) const MAX_POINTS: usize = 64;

/// One `--sweep`: a parameter and its values, as `--set` would take them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub name: String,
    pub(crate) values: Vec<String>,
}

impl Axis {
    /// True when every value is a whole number (the axis of a chart can then be numeric).
    pub(crate) fn numeric(&self) -> bool {
        self.values.iter().all(|v| v.parse::<i64>().is_ok())
    }
}

/// Reads one `--sweep` argument.
pub(crate) fn parse_axis(arg: &str) -> Result<Axis, String> {
    let Some((name, spec)) = arg.split_once('=') else {
        return Err(format!(
            "`--sweep {arg}`: expected NAME=A..B, NAME=A..B:STEP or NAME=V1,V2,… (e.g. `--sweep sale_town=5..9`)"
        ));
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`--sweep {arg}`: no parameter name before `=`"));
    }
    let spec = spec.trim();
    let values = if let Some((a, rest)) = spec.split_once("..") {
        let (b, step) = match rest.split_once(':') {
            Some((b, s)) => (b, Some(s)),
            None => (rest, None),
        };
        let int = |s: &str, what: &str| {
            s.trim().parse::<i64>().map_err(|_| {
                format!(
                    "`--sweep {arg}`: the {what} `{}` is not a whole number",
                    s.trim()
                )
            })
        };
        let (a, b) = (int(a, "start")?, int(b, "end")?);
        let step = match step {
            Some(s) => int(s, "step")?,
            None => 1,
        };
        if step <= 0 {
            return Err(format!("`--sweep {arg}`: the step must be at least 1"));
        }
        if a > b {
            return Err(format!(
                "`--sweep {arg}`: the range {a}..{b} is empty (write the smaller value first)"
            ));
        }
        let count = (b as i128 - a as i128) / step as i128 + 1;
        if count > MAX_POINTS as i128 {
            return Err(format!(
                "`--sweep {arg}`: {count} values, at most {MAX_POINTS} (give a larger step)"
            ));
        }
        (0..count as i64)
            .map(|k| (a + k * step).to_string())
            .collect()
    } else {
        let values: Vec<String> = spec.split(',').map(|v| v.trim().to_string()).collect();
        if values.iter().any(|v| v.is_empty()) {
            return Err(format!("`--sweep {arg}`: an empty value in the list"));
        }
        values
    };
    if values.len() > MAX_POINTS {
        return Err(format!(
            "`--sweep {arg}`: {} values, at most {MAX_POINTS}",
            values.len()
        ));
    }
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            return Err(format!("`--sweep {arg}`: the value {v} is given twice"));
        }
    }
    Ok(Axis {
        name: name.to_string(),
        values,
    })
}

/// The axes of the `--sweep` arguments, checked: distinct names, and a grid of at most
/// [`MAX_POINTS`] points.
pub fn parse_axes(args: &[String]) -> Result<Vec<Axis>, String> {
    let axes: Vec<Axis> = args
        .iter()
        .map(|a| parse_axis(a))
        .collect::<Result<_, _>>()?;
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.name == a.name) {
            return Err(format!(
                "`--sweep {}` is given twice: one `--sweep` per parameter",
                a.name
            ));
        }
    }
    let points = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
        .unwrap_or(usize::MAX);
    if points > MAX_POINTS {
        let sizes: Vec<String> = axes.iter().map(|a| a.values.len().to_string()).collect();
        return Err(format!(
            "the sweep's grid has {} = {points} points, at most {MAX_POINTS}: fewer values, or fewer `--sweep`",
            sizes.join(" × ")
        ));
    }
    Ok(axes)
}

/// The points of the grid, first axis slowest: each point is one value per axis, as
/// `NAME=VALUE` settings.
pub fn points(axes: &[Axis]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for a in axes {
        out = out
            .into_iter()
            .flat_map(|p| {
                a.values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.push(format!("{}={v}", a.name));
                    q
                })
            })
            .collect();
    }
    out
}

/// A point's name in reports: `sale_town=7`, or `a=1 b=2` on a grid.
pub(crate) fn label(point: &[String]) -> String {
    point.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(arg: &str) -> Vec<String> {
        parse_axis(arg).unwrap().values
    }

    #[test]
    fn ranges_lists_and_steps() {
        assert_eq!(values("x=1..4"), ["1", "2", "3", "4"]);
        assert_eq!(values("x=0..10:5"), ["0", "5", "10"]);
        assert_eq!(values("x=0..9:5"), ["0", "5"]);
        assert_eq!(values("x=-2..0"), ["-2", "-1", "0"]);
        assert_eq!(values("x=7..7"), ["7"]);
        assert_eq!(values("x=true,false"), ["true", "false"]);
        assert_eq!(values(" x = 3 , 1 "), ["3", "1"]);
        assert!(parse_axis("x=1..4").unwrap().numeric());
        assert!(!parse_axis("x=true,false").unwrap().numeric());
    }

    #[test]
    fn bad_sweeps_are_refused() {
        for (arg, says) in [
            ("x", "expected NAME=A..B"),
            ("=1..2", "no parameter name"),
            ("x=3..1", "is empty"),
            ("x=1..3:0", "step must be at least 1"),
            ("x=a..3", "start `a` is not a whole number"),
            ("x=1..100", "100 values, at most 64"),
            ("x=1,,2", "empty value"),
            ("x=1,2,1", "1 is given twice"),
            ("x=-9223372036854775808..9223372036854775807", "at most 64"),
        ] {
            let e = parse_axis(arg).unwrap_err();
            assert!(e.contains(says), "{arg}: {e}");
        }
    }

    #[test]
    fn grids_multiply_and_are_capped() {
        let axes = parse_axes(&["a=1..2".into(), "b=x,y,z".into()]).unwrap();
        let p: Vec<String> = points(&axes).iter().map(|p| label(p)).collect();
        assert_eq!(
            p,
            ["a=1 b=x", "a=1 b=y", "a=1 b=z", "a=2 b=x", "a=2 b=y", "a=2 b=z"]
        );
        let e = parse_axes(&["a=1..10".into(), "b=1..10".into()]).unwrap_err();
        assert!(e.contains("10 × 10 = 100 points, at most 64"), "{e}");
        let e = parse_axes(&["a=1..2".into(), "a=3,4".into()]).unwrap_err();
        assert!(e.contains("given twice"), "{e}");
    }
}
