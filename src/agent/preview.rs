//! What an option gives the player deciding, as far as they can know it: the option taken in copies
//! of the game where what they may not see (the tiles to come, face-down chips' faces, the rules'
//! own randomness) is dealt afresh (`Scratch::sample`, from what they see alone). The points are
//! said only when every copy agrees; the real game is never asked, so the answer tells nothing the
//! player may not see (a page shows it beside the option: "Sell town … : 9 points").

use super::lookahead::Scratch;
use crate::game::Game;
use crate::lang::interp::Interp;
use crate::rng::Rng;

/// How many copies are dealt (points that hang on a hidden chip worth 1 or 2, 6 in 10 of them
/// worth 1, agree in all 16 once in about 3,500 options).
const SAMPLES: u64 = 16;

/// The points the player deciding scores at once by taking option `i` (their score after it minus
/// before), when that is the same in every copy of the game they cannot tell from the real one;
/// `None` when it depends on what they may not see, or the option cannot be taken.
pub fn points_as_seen(game: &Game<Interp>, i: usize) -> Option<i64> {
    let me = game.decider();
    let mut scratch = Scratch::default();
    // A generator that depends on nothing hidden: the turn and the option.
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15 ^ (u64::from(game.st.turn) << 20) ^ i as u64);
    let mut seen = None;
    for _ in 0..SAMPLES {
        let g = scratch.sample(game, me, &mut rng);
        let before = g.st.players.get(me as usize)?.score;
        g.choose(i).ok()?;
        let points = g.st.players.get(me as usize)?.score - before;
        if seen.is_some_and(|p| p != points) {
            return None;
        }
        seen = Some(points);
    }
    seen
}
