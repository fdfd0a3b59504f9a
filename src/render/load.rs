//! A finished game to draw, from a JSON Lines log (played again from its seed and choices) or a
//! script (played). From a log, every decision's full list of options is kept too.

use crate::diag::{Code, Source};
use crate::game::Game;
use crate::lang::interp::Interp;
use crate::variant::InputError;

/// One decision: the turn, the options open and the one taken.
#[derive(Clone, Debug)]
pub(crate) struct Decision {
    pub(crate) turn: u32,
    pub(crate) options: Vec<String>,
}

pub struct Loaded {
    pub game: Game<Interp>,
    /// Every decision with all its options (from a log); empty for a script, whose transcript
    /// events list the options when there are few.
    pub(crate) decisions: Vec<Decision>,
    /// The tile stacks at each decision of the replay (turn, stacks), for the pictures of past
    /// turns (the events do not tell which tile came from a stack).
    pub(crate) stacks: Vec<(u32, Vec<super::timeline::StackView>)>,
    /// What to tell the user before drawing (rules changed since the game, a log drawn although it
    /// disagrees with its replay), one message each.
    pub warnings: Vec<String>,
    /// Per rule or action of the game's rules (by name): its heading, file and line, and sentence,
    /// as its rules page says them, for the points it gives ("why these points?").
    pub(crate) why: Vec<(String, String)>,
}

/// Per rule, action and setup block of `v` (by name): "Heading (file:line): sentence", from its
/// rules page.
pub(crate) fn why_of(v: &crate::variant::Variant) -> Vec<(String, String)> {
    let page = crate::doc::page::page(v);
    page.setup
        .iter()
        .chain(&page.rules)
        .chain(&page.actions)
        .map(|i| {
            (
                i.name.clone(),
                format!("{} ({}:{}): {}", i.heading, i.file, i.line, i.sentence),
            )
        })
        .collect()
}

impl Loaded {
    /// A game of `v` played here and now (say in a page), drawn from its own events: without the
    /// options of each decision or the stacks of past turns, which only a log's replay records.
    pub fn of_game(game: Game<Interp>, v: &crate::variant::Variant) -> Loaded {
        Loaded {
            game,
            decisions: Vec::new(),
            stacks: Vec::new(),
            warnings: Vec::new(),
            why: why_of(v),
        }
    }
}

/// How to load a game to draw.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// A rules file the user named (`--rules FILE`), read instead of the rules the log names.
    pub rules: Option<std::path::PathBuf>,
    /// Draws a log that disagrees with its replay (the replay's values, with a warning) instead of
    /// refusing it.
    pub draw_anyway: bool,
}

/// Whether a file's text is a game log (JSON Lines) rather than a script.
pub(crate) fn is_log(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// Reads a file, or standard input for `-` (named `<stdin>`, its folder the current one).
pub fn read_input(path: &std::path::Path) -> Result<Source, InputError> {
    if path == std::path::Path::new(crate::paths::STDIO) {
        let text = crate::files::read_stdin()
            .map_err(|e| InputError::new(Code::Unreadable, format!("error: {e}")))?;
        return Ok(Source::new("<stdin>", text));
    }
    // A name that is not UTF-8 (Linux names are bytes) is read as it is and shown with `�`.
    let text = crate::files::read_text(path)
        .map_err(|e| InputError::new(Code::Unreadable, format!("error: {e}")))?;
    Ok(Source::new(path.to_string_lossy(), text))
}

/// Loads a game log or a script from `path` (`-`: standard input). A log is replayed and checked as
/// `carto replay` checks it: one that disagrees with its replay (an edited score, a reordered line)
/// is refused, or drawn with a warning when `opts.draw_anyway`.
pub fn load_game(path: &std::path::Path, opts: &LoadOptions) -> Result<Loaded, InputError> {
    let src = read_input(path)?;
    if is_log(&src.text) {
        let mut decisions = Vec::new();
        let mut stacks = Vec::new();
        let r = crate::replay::replay_game_with(&src, opts.rules.as_deref(), &mut |g| {
            decisions.push(Decision {
                turn: g.st.turn,
                options: g.option_names(),
            });
            if !g.st.tile_stacks.is_empty() {
                stacks.push((g.st.turn, super::timeline::stacks_of(&g.st)));
            }
        })?;
        let mut warnings = Vec::new();
        if !r.changed.is_empty() {
            warnings.push(format!(
                "warning: {}: the rules have changed since the game was played:\n  {}",
                src.name,
                r.changed.join("\n  ")
            ));
        }
        if let Err(e) = crate::replay::verify(&src, &r) {
            let (code, e) = (e.code, e.text.trim_end().to_string());
            if !opts.draw_anyway {
                return Err(InputError::new(
                    code,
                    format!(
                        "{e}\n  the log disagrees with its replay, so it is not drawn; \
                         `--draw-anyway` draws the replay (not the log's values) all the same"
                    ),
                ));
            }
            let e = e.strip_prefix("error: ").unwrap_or(&e);
            warnings.push(format!(
                "warning: {e}\n  drawing the replay, not the log's values (--draw-anyway)"
            ));
        }
        Ok(Loaded {
            why: why_of(&r.variant),
            game: r.game,
            decisions,
            stacks,
            warnings,
        })
    } else {
        if opts.rules.is_some() {
            return Err(InputError::new(
                Code::BadArguments,
                format!(
                    "error: {}: `--rules` is for a game log; a script names its own variant",
                    src.name
                ),
            ));
        }
        let r = crate::script::run_script(&src)?;
        Ok(Loaded {
            why: why_of(&r.variant),
            game: r.game,
            decisions: Vec::new(),
            stacks: Vec::new(),
            warnings: Vec::new(),
        })
    }
}
