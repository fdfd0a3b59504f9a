//! A finished game to draw, from a JSON Lines log (played again from its seed and choices) or a
//! script (played). From a log, every decision's full list of options is kept too.

use crate::diag::Source;
use crate::game::Game;
use crate::lang::interp::Interp;
use crate::variant::InputError;

/// One decision: the turn, the options open and the one taken.
#[derive(Clone, Debug)]
pub struct Decision {
    pub turn: u32,
    pub options: Vec<String>,
}

pub struct Loaded {
    pub game: Game<Interp>,
    /// Every decision with all its options (from a log); empty for a script, whose transcript
    /// events list the options when there are few.
    pub decisions: Vec<Decision>,
}

/// Whether a file's text is a game log (JSON Lines) rather than a script.
pub fn is_log(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// Loads a game log or a script from `path`.
pub fn load_game(path: &str) -> Result<Loaded, InputError> {
    let text = crate::variant::read_text(path)?;
    let src = Source::new(path, text);
    if is_log(&src.text) {
        let mut decisions = Vec::new();
        let r = crate::replay::replay_game(&src, &mut |g| {
            decisions.push(Decision {
                turn: g.st.turn,
                options: g.option_names(),
            })
        })?;
        Ok(Loaded {
            game: r.game,
            decisions,
        })
    } else {
        let r = crate::script::run_script(&src)?;
        Ok(Loaded {
            game: r.game,
            decisions: Vec::new(),
        })
    }
}
