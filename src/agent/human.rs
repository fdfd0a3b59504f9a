//! `human`: a person at the table. At each of their decisions it shows the board with coordinates,
//! the tile and followers in hand, the chips in their area and the scores, and the numbered legal
//! options; it reads a number or an option name written as scripts write them, and on bad input
//! says why and asks again (up to `MAX_REFUSED` times in a row). It reads lines from any reader, so a terminal and a pipe work alike.

use super::lookahead::Scratch;
use super::{Agent, View};
use crate::game::{canonical_option, Game, GameError};
use crate::lang::interp::Interp;
use crate::render::ascii::ascii_board_for;
use crate::rng::Rng;
use crate::sight::{ChipSight, Seat};
use crate::state::Place;
use std::io::{BufRead, Write};

/// How many answers in a row may be refused at one decision before the game stops (exit 1).
pub(crate) const MAX_REFUSED: usize = 100;

pub(crate) struct Human {
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
    scratch: Scratch,
}

impl Human {
    /// A person reading `output` and answering on `input`.
    pub(crate) fn new(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) -> Human {
        Human {
            input,
            output,
            scratch: Scratch::default(),
        }
    }

    /// A person at standard input and output.
    pub(crate) fn stdio() -> Human {
        Human::new(
            Box::new(std::io::BufReader::new(std::io::stdin())),
            Box::new(std::io::stdout()),
        )
    }

    /// Reads the answer: the option's index, or why the line names no legal option.
    fn read_answer(&mut self, game: &Game<Interp>, line: &str) -> Result<usize, String> {
        let line = line.trim();
        let n = game.options.len();
        if line.is_empty() {
            return Err(format!("write a number from 1 to {n} or an option's name"));
        }
        if let Ok(k) = line.parse::<i64>() {
            return match usize::try_from(k) {
                Ok(k) if (1..=n).contains(&k) => Ok(k - 1),
                _ => Err(format!("there is no option {k}: the options are 1 to {n}")),
            };
        }
        let want = canonical_option(line);
        if let Some(i) = game
            .options
            .iter()
            .position(|&o| canonical_option(&game.option_name(o)) == want)
        {
            return Ok(i);
        }
        // The engine says which rule refuses it (it needs a game of its own to ask the rules).
        let g = self.scratch.load(game);
        g.find_option(line).map_err(|why| {
            why.lines()
                .next()
                .unwrap_or("not a legal option")
                .to_string()
        })
    }
}

/// What the deciding player sees (what their seat may see: `crate::sight`): board, scores, hand and
/// the numbered options.
pub(crate) fn situation(game: &Game<Interp>) -> String {
    let st = &game.st;
    let me = game.decider();
    let name = |p: u8| st.players.get(p as usize).map_or("?", |p| p.name.as_str());
    let mut s = format!("\n== turn {}: {} to decide ==\n", st.turn, name(me));
    s.push_str(&ascii_board_for(game, Seat::Player(me)));
    let scores: Vec<String> = st
        .players
        .iter()
        .map(|p| format!("{} {}", p.name, p.score))
        .collect();
    s.push_str(&format!("scores: {}\n", scores.join(", ")));
    // The tile in hand, drawn, while it is to be placed (not after).
    let names = game.option_names();
    if let Some(t) = st.current_tile {
        if names.iter().any(|n| n.starts_with("place ")) {
            s.push_str(&crate::render::hand::tile_in_hand(game, t));
        }
    }
    s.push_str(&format!(
        "followers in supply: {}; tiles left: {}\n",
        st.followers_in_supply(me),
        st.stack.len()
    ));
    let seat = Seat::Player(me);
    let chips: Vec<String> = (0..st.chips.len())
        .filter(|&id| st.chips[id].place == Place::Hand(me))
        .map(|id| match seat.chip_now(game, id) {
            ChipSight::Face { colour, value } => {
                let colour = game.cfg.colours.get(colour as usize);
                format!("{}{value}", colour.map_or("?", |c| c.as_str()))
            }
            ChipSight::Printed { .. } | ChipSight::Back => "face down".into(),
        })
        .collect();
    if !chips.is_empty() {
        s.push_str(&format!("chips in hand: {}\n", chips.join(", ")));
    }
    s.push_str("options:\n");
    for (i, name) in names.iter().enumerate() {
        match crate::render::hand::option_words(name) {
            Some(words) => s.push_str(&format!("{:>4}. {name}   ({words})\n", i + 1)),
            None => s.push_str(&format!("{:>4}. {name}\n", i + 1)),
        }
    }
    s
}

impl Agent for Human {
    fn name(&self) -> &str {
        "human"
    }

    fn choose(&mut self, view: &View, _rng: &mut Rng) -> Result<usize, GameError> {
        // A person sees the board as `situation` draws it (face-down chips hidden).
        let game = view.game;
        let shown = situation(game);
        let _ = write!(self.output, "{shown}");
        let mut refused = 0;
        loop {
            let _ = write!(self.output, "your choice (number or name)> ");
            let _ = self.output.flush();
            let mut line = String::new();
            let read = self.input.read_line(&mut line);
            if matches!(read, Ok(0) | Err(_)) {
                let _ = writeln!(self.output);
                return Err(GameError::Input(
                    "the input ended before the game did (no answer to the pending decision)"
                        .into(),
                ));
            }
            match self.read_answer(game, &line) {
                Ok(i) => {
                    let _ = writeln!(self.output, "-> {}", game.option_name(game.options[i]));
                    return Ok(i);
                }
                Err(why) => {
                    // Input that never names an option (`yes 2 |` where one option is left) must
                    // not run away: a person gives up long before this many refusals.
                    refused += 1;
                    if refused == MAX_REFUSED {
                        let _ = writeln!(self.output, "not taken: {why}");
                        return Err(GameError::Input(format!(
                            "{MAX_REFUSED} answers in a row named no legal option (the last: {why}); stopped"
                        )));
                    }
                    let _ = writeln!(self.output, "not taken: {why}; try again");
                }
            }
        }
    }
}
