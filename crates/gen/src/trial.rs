//! A trial of a generated rules file (`lang::gen`): checked, and when the checker passes it, played
//! for a few turns by random (sometimes greedy) agents, then ended where it stands, so that final
//! scoring runs too (with the decisions it asks for). The body of the `play` fuzz target and of
//! the proptest smoke `tests/generated.rs`. Nothing in it may panic; a rule that runs away is
//! stopped by the interpreter's operation budget with an error, and the game stops after
//! [`TURNS`] turns or [`MAX_DECISIONS`] decisions.

use crate as gen;
use carto::agent::{Agent, Greedy, Random, View};
use carto::diag::Source;
use carto::rng::Rng;
use carto::variant::{variant_from_source, InputError};

/// Turns played of each file that passes the checker.
pub const TURNS: u32 = 4;
/// Decisions taken at most in one trial (asked decisions and actions can make turns long).
pub const MAX_DECISIONS: u32 = 300;

/// What happened to one generated file.
#[derive(Debug, Clone)]
pub struct Trial {
    /// The generated rules file.
    pub text: String,
    /// Whether the checker (and the loader after it) accepted the file.
    pub checked: bool,
    /// Decisions taken.
    pub decisions: u32,
    /// The turn the game reached.
    pub turn: u32,
    /// The game's error, if play stopped on one (a refused file is not an error here).
    pub error: Option<String>,
    /// Whether the rules (the file's or its import's) read a square attribute of the map.
    pub attributes_read: bool,
}

/// Generates a rules file from `data`, checks it, and plays it a few turns when it passes.
pub fn play_generated(data: &[u8]) -> Trial {
    let text = gen::rules_file(gen::Catalog::bundled(), data);
    let mut trial = Trial {
        text,
        checked: false,
        decisions: 0,
        turn: 0,
        error: None,
        attributes_read: false,
    };
    let source = Source::new("generated.rules", trial.text.as_str());
    let no_sets = |_: usize, e: String| InputError::new(carto::diag::Code::BadSet, e);
    // The generated file names only bundled imports, maps and tile sets: nothing is read from disk.
    let Ok(variant) = variant_from_source(&source, "generated.rules", &[], &no_sets) else {
        return trial;
    };
    trial.checked = true;
    trial.attributes_read = !variant.program.attrs.is_empty();
    let seed = data
        .iter()
        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(*b as u64));
    let (lo, hi) = variant.players;
    let n = (lo.max(2) + (seed as usize % 2)).min(hi.max(1));
    let players: Vec<String> = ["ann", "bob", "cat", "dan", "eve", "fay"]
        .iter()
        .take(n)
        .map(|s| s.to_string())
        .collect();
    let mut game = match variant.new_game(variant.config.clone(), &players, seed, seed % 3 == 0) {
        Ok(g) => g,
        Err(e) => {
            trial.error = Some(e.to_string());
            return trial;
        }
    };
    let mut agent: Box<dyn Agent> = if seed % 16 == 0 {
        Box::new(Greedy::default())
    } else {
        Box::new(Random)
    };
    let mut rng = Rng::new(seed);
    let result = (|| {
        while game.st.turn <= TURNS && trial.decisions < MAX_DECISIONS && game.advance()? {
            let i = agent.choose(&View::of(&game), &mut rng)?;
            game.choose(i)?;
            trial.decisions += 1;
        }
        // Then the game ends where it stands: final scoring runs, with the decisions it asks for
        // (asks during final scoring, `answered`, `game_end`) taken by the agent too.
        if trial.decisions < MAX_DECISIONS && !game.is_over() {
            game.stop_here();
            while trial.decisions < MAX_DECISIONS && game.advance()? {
                let i = agent.choose(&View::of(&game), &mut rng)?;
                game.choose(i)?;
                trial.decisions += 1;
            }
        }
        Ok::<(), carto::game::GameError>(())
    })();
    trial.turn = game.st.turn;
    if let Err(e) = result {
        trial.error = Some(e.to_string());
    }
    trial
}
