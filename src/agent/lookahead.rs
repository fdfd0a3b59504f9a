//! Looking ahead in a copy of the game: a scratch game that keeps its buffers between copies
//! (`Game::copy_unrecorded`), samples of what the deciding player cannot see (the order of the
//! tiles to come, the faces of face-down chips, the rules' own randomness) dealt afresh in it, and
//! the simple policies look-aheads use.

use crate::game::{Game, GameError, Opt};
use crate::lang::interp::Interp;
use crate::rng::Rng;
use crate::sight::Seat;
use crate::state::Chip;

/// Most decisions a look-ahead takes before it stops and reads the scores as they are (a safeguard:
/// games end long before, since every turn uses up a tile).
pub(crate) const MAX_LOOKAHEAD_DECISIONS: u32 = 5000;

/// A scratch copy of a game, reused from decision to decision, with the buffers a sample deals
/// from.
#[derive(Default)]
pub(crate) struct Scratch {
    game: Option<Game<Interp>>,
    tiles: Vec<u16>,
    faces: Vec<(u8, u8)>,
    /// Per tile type, for sorting the tiles dealt.
    counts: Vec<u32>,
}

impl Scratch {
    /// The scratch game, now a copy of `game` that records nothing (`Game::copy_unrecorded`: no
    /// event log, and only what play reads).
    pub(crate) fn load(&mut self, game: &Game<Interp>) -> &mut Game<Interp> {
        // The first load clones (sizing every buffer once), then each load copies into it.
        let g = self.game.get_or_insert_with(|| game.clone());
        g.copy_unrecorded(game);
        g
    }

    /// The scratch game, now a copy of `game` again, given that its board still is `game`'s (it
    /// was loaded from `game`, and no tile was placed nor follower moved in it since): all but the
    /// board is copied (`Game::copy_unrecorded_but_board`).
    pub(crate) fn reload(&mut self, game: &Game<Interp>) -> &mut Game<Interp> {
        if self.game.is_none() {
            return self.load(game);
        }
        let g = self.game.as_mut().expect("a scratch game");
        g.copy_unrecorded_but_board(game);
        g
    }

    /// The scratch game as it was left, if any.
    pub(crate) fn game_mut(&mut self) -> Option<&mut Game<Interp>> {
        self.game.as_mut()
    }

    /// The scratch game with the chips of `game` (where each lies, which way up; see
    /// `State::copy_chips_from`), the rest as it was left: a copy of `game` the first time, or when
    /// it is a game of other rules or another map.
    pub(crate) fn with_chips_of(&mut self, game: &Game<Interp>) -> &mut Game<Interp> {
        let same = self.game.as_ref().is_some_and(|g| {
            std::sync::Arc::ptr_eq(&g.cfg, &game.cfg)
                && std::ptr::eq(g.hooks.program(), game.hooks.program())
                && g.st.board.square.len() == game.st.board.square.len()
        });
        if !same {
            return self.load(game);
        }
        let g = self.game.as_mut().expect("a scratch game");
        g.st.copy_chips_from(&game.st);
        g
    }

    /// The scratch game, now a copy of `game` that player `me` cannot tell from it: what `me` may
    /// not see is dealt afresh from `rng` (see [`deal_hidden`]).
    pub(crate) fn sample(
        &mut self,
        game: &Game<Interp>,
        me: u8,
        rng: &mut Rng,
    ) -> &mut Game<Interp> {
        let g = self.game.get_or_insert_with(|| game.clone());
        g.copy_unrecorded(game);
        deal_hidden(
            g,
            me,
            rng,
            &mut self.tiles,
            &mut self.faces,
            &mut self.counts,
        );
        g
    }
}

/// Whether player `me` sees the face of chip `c` (decided in one place: [`Seat::sees_face`]).
#[inline]
pub(crate) fn sees(c: &Chip, me: u8) -> bool {
    Seat::Player(me).sees_face(c.face_up, c.place)
}

/// Deals afresh from `rng` what player `me` may not see, from what they see alone: the result
/// depends on `rng` and on how many of what are hidden where, never on the hidden order or faces.
/// - The tiles not seen yet (the draw stack, and every tile stack under its face-up top) are
///   pooled, sorted, shuffled and dealt back, as many to each place as it held.
/// - The faces (colour and value) of the chips whose face `me` cannot see (face down, and not in
///   `me`'s own area: on the map, in the supply, set aside, in another player's area) are sorted,
///   shuffled and dealt back to those chips in chip order. (Where the rules make a face-down
///   chip's colour public, a sample may give it another colour: it never knows more than `me`.)
/// - The supply's order is sorted and shuffled, and the rules' own generator is forked from `rng`.
fn deal_hidden(
    g: &mut Game<Interp>,
    me: u8,
    rng: &mut Rng,
    tiles: &mut Vec<u16>,
    faces: &mut Vec<(u8, u8)>,
    counts: &mut Vec<u32>,
) {
    let st = &mut g.st;
    tiles.clear();
    tiles.extend_from_slice(&st.stack);
    for s in &st.tile_stacks {
        if let Some((_, under)) = s.tiles.split_last() {
            tiles.extend_from_slice(under);
        }
    }
    sort_small(tiles, counts);
    rng.shuffle(tiles);
    let (to_stack, mut rest) = tiles.split_at(st.stack.len());
    st.stack.copy_from_slice(to_stack);
    for s in &mut st.tile_stacks {
        let n = s.tiles.len().saturating_sub(1);
        let (under, more) = rest.split_at(n);
        s.tiles[..n].copy_from_slice(under);
        rest = more;
    }
    faces.clear();
    faces.extend(
        st.chips
            .iter()
            .filter(|c| !sees(c, me))
            .map(|c| (c.colour, c.value)),
    );
    if !faces.is_empty() {
        faces.sort_unstable();
        rng.shuffle(faces);
        let hidden = st.chips.iter_mut().filter(|c| !sees(c, me));
        for (c, &(colour, value)) in hidden.zip(faces.iter()) {
            c.colour = colour;
            c.value = value;
        }
    }
    st.supply.sort_unstable();
    rng.shuffle(&mut st.supply);
    st.rng = rng.fork();
    st.chips_changed();
}

/// Sorts `xs` (tile types, few kinds and many of each) by counting each kind: the order
/// `sort_unstable` gives, in a pass over them and one over the kinds.
fn sort_small(xs: &mut [u16], counts: &mut Vec<u32>) {
    let Some(&most) = xs.iter().max() else {
        return;
    };
    counts.clear();
    counts.resize(usize::from(most) + 1, 0);
    for &x in xs.iter() {
        counts[usize::from(x)] += 1;
    }
    let mut at = 0;
    for (x, &n) in counts.iter().enumerate() {
        let n = n as usize;
        xs[at..at + n].fill(x as u16);
        at += n;
    }
}

/// The quiet choice: pass or draw when offered (no follower, no action), else the first option.
pub(crate) fn quiet_option(options: &[Opt]) -> usize {
    options
        .iter()
        .position(|o| matches!(o, Opt::Pass | Opt::Draw))
        .unwrap_or(0)
}

/// Plays on with the quiet choice until the game is over (or the safeguard is reached).
pub(crate) fn finish_quietly(g: &mut Game<Interp>) -> Result<(), GameError> {
    let mut n = 0;
    while n < MAX_LOOKAHEAD_DECISIONS && g.advance()? {
        let i = quiet_option(&g.options);
        g.choose(i)?;
        n += 1;
    }
    Ok(())
}

/// The player's score minus the best of the others' scores.
pub(crate) fn margin(g: &Game<Interp>, me: u8) -> i64 {
    let mine = g.st.players.get(me as usize).map_or(0, |p| p.score);
    let best_other =
        g.st.players
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != me as usize)
            .map(|(_, p)| p.score)
            .max()
            .unwrap_or(0);
    mine - best_other
}

#[cfg(test)]
mod tests {
    use super::sort_small;

    #[test]
    fn counting_sorts_as_sort_unstable_does() {
        let mut counts = Vec::new();
        let mut seed = 7u32;
        for len in [0usize, 1, 2, 5, 72, 300] {
            let xs: Vec<u16> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ((seed >> 16) % 90) as u16
                })
                .collect();
            let (mut a, mut b) = (xs.clone(), xs);
            a.sort_unstable();
            sort_small(&mut b, &mut counts);
            assert_eq!(a, b, "{len} tiles");
        }
    }
}
