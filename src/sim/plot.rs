//! The chart of a sweep (`carto sim --sweep … --plot FILE.svg`): panels stacked one above the
//! other, each a figure against the swept value, one line per series with its 95% interval as a
//! bar, labelled axes, a legend beside the plot, and a dashed reference line where one means
//! something (the fair win share). Plain SVG with no script or external reference.

use std::fmt::Write as _;

/// A mean and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Est {
    pub(crate) mean: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

/// One line of a panel: a name for the legend and one estimate per x value.
pub(crate) struct Series {
    pub(crate) name: String,
    pub(crate) points: Vec<Est>,
}

pub(crate) struct Panel {
    pub(crate) title: String,
    pub(crate) y_label: String,
    pub(crate) series: Vec<Series>,
    /// A dashed horizontal line, with its legend text.
    pub(crate) reference: Option<(f64, String)>,
}

pub struct Chart {
    pub(crate) title: String,
    pub(crate) x_label: String,
    /// The x values' labels, in order.
    pub(crate) x_labels: Vec<String>,
    /// The x values when they are numbers (one numeric axis); otherwise they are evenly spaced.
    pub(crate) x_values: Option<Vec<f64>>,
    pub(crate) panels: Vec<Panel>,
}

const W: f64 = 800.0;
const LEFT: f64 = 78.0;
const PLOT_W: f64 = 500.0;
const LEGEND_X: f64 = LEFT + PLOT_W + 24.0;
const PANEL_H: f64 = 250.0;
const PLOT_H: f64 = 170.0;
const TOP: f64 = 56.0;
const COLORS: [&str; 6] = [
    "#1f6fb4", "#d1495b", "#2e8b57", "#8d5fd3", "#e08a00", "#6b4f3a",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Round tick steps (1, 2 or 5 times a power of ten) covering `lo..hi` with about 5 ticks.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p);
    let mut out = Vec::new();
    let mut t = (lo / step).ceil() * step;
    while t <= hi + step * 1e-9 && out.len() < 20 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

fn tick_text(v: f64, step: f64) -> String {
    let digits = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil() as usize
    };
    format!("{v:.digits$}")
}

/// What every panel shares: where each x value goes and how its labels are set.
struct XAxis {
    xs: Vec<f64>,
    x0: f64,
    x1: f64,
    /// Labels longer than 6 characters are set slanted, with room below the axis.
    long: bool,
    label_room: f64,
    /// Label every k-th value so that labels do not run into each other.
    every: usize,
}

impl XAxis {
    fn of(c: &Chart) -> XAxis {
        let n = c.x_labels.len();
        let xs: Vec<f64> = match &c.x_values {
            Some(v) if v.len() == n => v.clone(),
            _ => (0..n).map(|i| i as f64).collect(),
        };
        let (xmin, xmax) = xs
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let pad = if n > 1 {
            (xmax - xmin) / (n as f64 - 1.0) * 0.5
        } else {
            1.0
        };
        let long = c
            .x_labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            > 6;
        let every = ((n as f64 * if long { 16.0 } else { 40.0 }) / PLOT_W)
            .ceil()
            .max(1.0) as usize;
        XAxis {
            xs,
            x0: xmin - pad,
            x1: xmax + pad,
            long,
            label_room: if long { 70.0 } else { 0.0 },
            every,
        }
    }

    fn sx(&self, x: f64) -> f64 {
        LEFT + (x - self.x0) / (self.x1 - self.x0) * PLOT_W
    }
}

/// The chart as an SVG document.
pub fn svg(c: &Chart) -> String {
    let ax = XAxis::of(c);
    let h = TOP + c.panels.len() as f64 * (PANEL_H + ax.label_room) + 10.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" viewBox="0 0 {W} {h}" font-family="Helvetica, Arial, sans-serif" font-size="13">
<rect width="100%" height="100%" fill="white"/>
<text x="{}" y="28" font-size="17" font-weight="bold" text-anchor="middle">{}</text>
"#,
        W / 2.0,
        esc(&c.title)
    );
    for (p, panel) in c.panels.iter().enumerate() {
        let top = TOP + p as f64 * (PANEL_H + ax.label_room) + 20.0;
        draw_panel(&mut s, c, &ax, panel, top);
    }
    s.push_str("</svg>\n");
    s
}

/// The range a panel's y axis covers: every estimate and the reference line, with a margin.
fn y_range(panel: &Panel) -> (f64, f64) {
    let (mut ylo, mut yhi) = (f64::INFINITY, f64::NEG_INFINITY);
    for e in panel.series.iter().flat_map(|s| &s.points) {
        for v in [e.lo, e.hi, e.mean] {
            if v.is_finite() {
                ylo = ylo.min(v);
                yhi = yhi.max(v);
            }
        }
    }
    if let Some((r, _)) = panel.reference {
        ylo = ylo.min(r);
        yhi = yhi.max(r);
    }
    if !ylo.is_finite() {
        (ylo, yhi) = (0.0, 1.0);
    }
    let ypad = ((yhi - ylo) * 0.08).max(1e-3);
    (ylo - ypad, yhi + ypad)
}

/// One panel: its title, frame, y axis, x axis, reference line, series and legend.
fn draw_panel(s: &mut String, c: &Chart, ax: &XAxis, panel: &Panel, top: f64) {
    let bottom = top + PLOT_H;
    let (y0, y1) = y_range(panel);
    let sy = |y: f64| bottom - (y - y0) / (y1 - y0) * PLOT_H;
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="{}" font-size="15" font-weight="bold">{}</text>"#,
        top - 8.0,
        esc(&panel.title)
    );
    let _ = writeln!(
        s,
        "<rect x=\"{LEFT}\" y=\"{top}\" width=\"{PLOT_W}\" height=\"{PLOT_H}\" fill=\"#fafafa\" stroke=\"#888\"/>"
    );
    let yt = ticks(y0, y1);
    let ystep = if yt.len() > 1 { yt[1] - yt[0] } else { 1.0 };
    for t in &yt {
        let y = sy(*t);
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#e2e2e2\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT + PLOT_W,
            LEFT - 6.0,
            y + 4.0,
            tick_text(*t, ystep)
        );
    }
    let _ = writeln!(
        s,
        r#"<text transform="translate({},{:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        LEFT - 52.0,
        (top + bottom) / 2.0,
        esc(&panel.y_label)
    );
    draw_x_axis(s, c, ax, bottom);
    let mut legend_y = top + 10.0;
    if let Some((r, text)) = &panel.reference {
        let y = sy(*r);
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>",
            LEFT + PLOT_W
        );
        let _ = writeln!(
            s,
            "<line x1=\"{LEGEND_X}\" x2=\"{}\" y1=\"{legend_y}\" y2=\"{legend_y}\" stroke=\"#555\" stroke-dasharray=\"6 4\"/><text x=\"{}\" y=\"{}\">{}</text>",
            LEGEND_X + 24.0,
            LEGEND_X + 30.0,
            legend_y + 4.0,
            esc(text)
        );
        legend_y += 20.0;
    }
    let k = panel.series.len();
    for (j, se) in panel.series.iter().enumerate() {
        draw_series(s, ax, se, j, k, &sy, legend_y);
        legend_y += 20.0;
    }
    let _ = writeln!(
        s,
        "<text x=\"{LEGEND_X}\" y=\"{}\" fill=\"#555\" font-size=\"11\">bars: 95% interval</text>",
        legend_y + 4.0
    );
}

/// The x axis under a panel whose plot ends at `bottom`: a tick at every value, every k-th
/// labelled, and the axis's name.
fn draw_x_axis(s: &mut String, c: &Chart, ax: &XAxis, bottom: f64) {
    for (i, (x, l)) in ax.xs.iter().zip(&c.x_labels).enumerate() {
        let px = ax.sx(*x);
        let _ = writeln!(
            s,
            "<line x1=\"{px:.1}\" x2=\"{px:.1}\" y1=\"{bottom}\" y2=\"{}\" stroke=\"#888\"/>",
            bottom + 5.0
        );
        if i % ax.every == 0 {
            if ax.long {
                let _ = writeln!(
                    s,
                    r#"<text transform="translate({px:.1},{}) rotate(-35)" text-anchor="end">{}</text>"#,
                    bottom + 18.0,
                    esc(l)
                );
            } else {
                let _ = writeln!(
                    s,
                    r#"<text x="{px:.1}" y="{}" text-anchor="middle">{}</text>"#,
                    bottom + 20.0,
                    esc(l)
                );
            }
        }
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        LEFT + PLOT_W / 2.0,
        bottom + 40.0 + ax.label_room,
        esc(&c.x_label)
    );
}

/// Series `j` of `k`: its line, its interval bars and points, and its legend entry at `legend_y`.
fn draw_series(
    s: &mut String,
    ax: &XAxis,
    se: &Series,
    j: usize,
    k: usize,
    sy: &dyn Fn(f64) -> f64,
    legend_y: f64,
) {
    let color = COLORS[j % COLORS.len()];
    // Series side by side at each x, so that their bars do not hide one another.
    let dodge = (j as f64 - (k as f64 - 1.0) / 2.0) * 6.0;
    let pts: Vec<(f64, &Est)> = ax
        .xs
        .iter()
        .map(|x| ax.sx(*x) + dodge)
        .zip(&se.points)
        .collect();
    let path: Vec<String> = pts
        .iter()
        .filter(|(_, e)| e.mean.is_finite())
        .map(|(x, e)| format!("{x:.1},{:.1}", sy(e.mean)))
        .collect();
    let _ = writeln!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"/>",
        path.join(" ")
    );
    for (x, e) in &pts {
        if e.lo.is_finite() && e.hi.is_finite() {
            let (a, b) = (sy(e.lo), sy(e.hi));
            let _ = writeln!(
                s,
                "<path d=\"M{x:.1},{a:.1}V{b:.1}M{:.1},{a:.1}h8M{:.1},{b:.1}h8\" stroke=\"{color}\" stroke-width=\"1.5\"/>",
                x - 4.0,
                x - 4.0
            );
        }
        if e.mean.is_finite() {
            let _ = writeln!(
                s,
                "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{color}\"/>",
                sy(e.mean)
            );
        }
    }
    let _ = writeln!(
        s,
        "<line x1=\"{LEGEND_X}\" x2=\"{}\" y1=\"{legend_y}\" y2=\"{legend_y}\" stroke=\"{color}\" stroke-width=\"2\"/><circle cx=\"{}\" cy=\"{legend_y}\" r=\"3.5\" fill=\"{color}\"/><text x=\"{}\" y=\"{}\">{}</text>",
        LEGEND_X + 24.0,
        LEGEND_X + 12.0,
        LEGEND_X + 30.0,
        legend_y + 4.0,
        esc(&se.name)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(
            ticks(0.0, 1.0),
            [0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        assert_eq!(ticks(41.3, 58.9), [45.0, 50.0, 55.0]);
        assert_eq!(tick_text(0.4, 0.2), "0.4");
        assert_eq!(tick_text(45.0, 5.0), "45");
    }

    #[test]
    fn names_are_escaped() {
        let c = Chart {
            title: "a <b> & \"c\"".into(),
            x_label: "x".into(),
            x_labels: vec!["1".into()],
            x_values: None,
            panels: vec![Panel {
                title: "p".into(),
                y_label: "y".into(),
                series: vec![Series {
                    name: "<script>".into(),
                    points: vec![Est {
                        mean: 1.0,
                        lo: f64::NEG_INFINITY,
                        hi: f64::INFINITY,
                    }],
                }],
                reference: None,
            }],
        };
        let s = svg(&c);
        assert!(s.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
        assert!(s.contains("&lt;script&gt;") && !s.contains("<script>"));
    }
}
