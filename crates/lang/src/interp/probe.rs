//! For the interpreter's unit tests: a small variant on the endless table from a few lines of
//! rules, and its random games played one after another in one interpreter (as `bench` does). Built
//! from the language and the engine alone (the application's loader is a layer above): no imports, no
//! map, the bundled base tile set.

use super::Interp;
use crate::check::{check_source, render, RulesResolver};
use crate::diag::Source;
use crate::game::{compile_tiles, Config, Game, GameError};
use crate::ir::Program;
use std::sync::Arc;

/// An upgrade paid with chips from the hand worth exactly 4, one of them kept under the follower
/// upgraded: the rules several analyses' tests start from.
pub(crate) const UPGRADE: &str = "action up phase follower\n\
    when sum(c in chips(hand(player)): c.value) >= 4\n\
    choose pay: chips from chips(hand(player)) size 1..4 where sum(c in pay: c.value) == 4\n\
    choose target: followers(player) where target.strength == 1\n\
    choose keep: chips from pay size 1..1 {\n\
      move(keep, under(target), up)\n\
      move([c in pay where not contains(keep, c)], box, up)\n\
      strength(target, 2)\n}\n";

/// A chip in hand must be laid on a free square: the `when` reads chips, the squares offered read
/// tiles too (the forced check's tests start from it).
pub(crate) const LAY: &str = "forced lay when len(chips(hand(player))) > 0\n\
    choose chip: chips(hand(player))\n\
    choose at_square: [s in squares() where s.land]\n\
    where not at_square.covered and len(at_square.chips) == 0 {\n\
      move(chip, at(at_square), up)\n}";

/// A variant of the endless table whose rules end with `forced`.
pub(crate) fn forced(forced: &str) -> Probe {
    variant("red 1 x 2", forced)
}

/// A checked program and its game configuration.
pub(crate) struct Probe {
    pub(crate) program: Arc<Program>,
    pub(crate) config: Arc<Config>,
}

impl Probe {
    /// A new game run by the interpreter, on the endless table.
    pub(crate) fn new_game(
        &self,
        cfg: Arc<Config>,
        players: &[String],
        seed: u64,
        record: bool,
    ) -> Result<Game<Interp>, GameError> {
        let board = crate::board::Board::unbounded(1);
        let interp = Interp::new(self.program.clone(), None, &board);
        Game::new(cfg, interp, players, seed, record)
    }
}

/// Probe rules import nothing.
struct NoImports;

impl RulesResolver for NoImports {
    fn resolve(&self, name: &str, _from: &Source) -> Result<Source, String> {
        Err(format!("probe rules import nothing (`{name}`)"))
    }
}

/// The text of the rules file of [`variant`].
pub(crate) fn text(chips: &str, rules: &str) -> String {
    format!(
        "variant \"probe\" {{\n  title = \"Probe\"\n  doc = \"unit tests\"\n}}\n\
         chips {{ {chips} }}\n{rules}\n"
    )
}

/// A variant named "probe" with `chips` (the inside of a `chips { … }` block) and `rules`.
pub(crate) fn variant(chips: &str, rules: &str) -> Probe {
    let source = Source::new("probe.rules", text(chips, rules));
    let no_maps = |name: &str, _: &Source| Err(format!("probe rules name no map (`{name}`)"));
    let result = check_source(&source, &NoImports, &no_maps);
    let program = match result.program {
        Some(p) if result.errors() == 0 => p,
        _ => panic!("probe rules: {}", render(&result)),
    };
    let values = crate::header::header_values(&program, None)
        .unwrap_or_else(|p| panic!("probe header: {p:?}"));
    let sets: Vec<_> = values
        .tiles
        .iter()
        .map(|t| {
            crate::tiles::parse_bundled(t)
                .expect("a bundled tile set")
                .expect("it parses")
        })
        .collect();
    let (tiles, counts, start) = compile_tiles(&sets);
    let loaded = crate::header::Loaded {
        name: "probe".into(),
        rules: "probe.rules".into(),
        tiles,
        counts,
        start_tile: start.expect("a start tile"),
        map: None,
        sources: Vec::new(),
    };
    let config = crate::header::game_config(&program, &values, loaded);
    Probe {
        program: Arc::new(program),
        config: Arc::new(config),
    }
}

/// The final scores of random games with seeds `0..seeds`, and the interpreter at the end.
pub(crate) fn scores(v: &Probe, players: &[&str], seeds: u64) -> (Vec<Vec<i64>>, Interp) {
    let players: Vec<String> = players.iter().map(|p| (*p).to_string()).collect();
    let mut g = v
        .new_game(v.config.clone(), &players, 0, false)
        .expect("a game starts");
    let mut out = Vec::new();
    for seed in 0..seeds {
        g.reset(&players, seed, false).expect("a game resets");
        let mut rng = carto_engine::rng::Rng::new(seed);
        crate::game::play_random(&mut g, &mut rng).expect("the game runs");
        out.push(g.st.players.iter().map(|p| p.score).collect());
    }
    (out, g.hooks)
}
