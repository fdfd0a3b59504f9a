//! A progress bar on standard error for long runs (`sim`, `bench`): games done, games per second
//! and time left; none when standard error is not a terminal or the user asked for quiet.

use std::io::IsTerminal as _;

/// A bar for `total` games, or `None` when it should not be shown.
pub fn bar(total: u64, quiet: bool) -> Option<indicatif::ProgressBar> {
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} games  {rate} games/s  {eta} left",
    )
    .ok()?
    .with_key(
        "rate",
        |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}", s.per_sec());
        },
    );
    bar.set_style(style);
    Some(bar)
}
