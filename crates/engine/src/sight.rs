//! What each seat sees of a game, decided in one place (issue 33 A). Every interface that shows a
//! game to one of its players draws from here: the agents' [`View`](../../carto/agent/struct.View.html)
//! and the samples it deals, the terminal seat's board, the names of the options (so the log, the
//! terminal and the browser name a face-down chip alike) and the browser's Play tab.
//!
//! - A chip's face (colour and value) is seen when it lies face up, or in the seat's own area (its
//!   hand, its own area of a per-player holding). Everywhere else a face-down chip shows its back.
//! - Where the map prints a chip's colour under it (the map's `face_down_colour` names a square
//!   attribute, as Great Britain's spots), a face-down chip lying on such a square shows the
//!   colour printed there; never its value. The colour comes from the map, not from the chip.
//! - [`Seat::Everyone`] sees every face: a finished game's replay, the log, a script's transcript.

use crate::game::{Game, Hooks};
use crate::map::AttrValue;
use crate::state::Place;

/// Who looks at the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The player in this seat (0-based), during the game.
    Player(u8),
    /// Everyone sees everything: a finished game, a log, a transcript.
    Everyone,
}

/// What a seat sees of one chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChipSight {
    /// Its colour (an index into the configuration's colours) and value.
    Face { colour: u8, value: u8 },
    /// A face-down chip on a square that prints a colour (the map's `face_down_colour`): that
    /// colour, its value hidden.
    Printed { colour: u8 },
    /// A face-down chip whose colour and value are hidden.
    Back,
}

impl Seat {
    /// Whether this seat sees the face of a chip lying at `place`, face up or not.
    #[inline]
    pub fn sees_face(self, face_up: bool, place: Place) -> bool {
        match self {
            Seat::Everyone => true,
            Seat::Player(me) => {
                face_up
                    || place == Place::Hand(me)
                    || matches!(place, Place::PlayerHolding(_, p) if p == me)
            }
        }
    }

    /// What this seat sees of chip `id` (of the configuration's chip set) lying at `place`, face up
    /// or not (a snapshot of a past turn gives where it lay then).
    pub fn chip<H: Hooks>(
        self,
        game: &Game<H>,
        id: usize,
        face_up: bool,
        place: Place,
    ) -> ChipSight {
        let (colour, value) = game.cfg.chip_set.get(id).copied().unwrap_or((0, 0));
        self.chip_as(game, (colour, value), face_up, place)
    }

    /// What this seat sees of chip `id` as it lies now.
    pub fn chip_now<H: Hooks>(self, game: &Game<H>, id: usize) -> ChipSight {
        match game.st.chips.get(id) {
            Some(c) => self.chip_as(game, (c.colour, c.value), c.face_up, c.place),
            None => ChipSight::Back,
        }
    }

    /// What this seat sees of a chip of `face` (colour, value) lying at `place`.
    fn chip_as<H: Hooks>(
        self,
        game: &Game<H>,
        (colour, value): (u8, u8),
        face_up: bool,
        place: Place,
    ) -> ChipSight {
        if self.sees_face(face_up, place) {
            return ChipSight::Face { colour, value };
        }
        match place {
            Place::Square(cell) => match printed_colour(game, cell) {
                Some(colour) => ChipSight::Printed { colour },
                None => ChipSight::Back,
            },
            _ => ChipSight::Back,
        }
    }
}

/// The chip colour the map prints on the square of `cell` (its `face_down_colour` attribute, when
/// the map names one and the square's value is one of the chips' colours).
pub fn printed_colour<H: Hooks>(game: &Game<H>, cell: u32) -> Option<u8> {
    let map = game.cfg.map.as_ref()?;
    let attr = map.face_down_colour.as_deref()?;
    let sq = *game.st.board.square.get(cell as usize)?;
    let AttrValue::Str(name) = map.squares.get(sq as usize)?.attrs.get(attr)? else {
        return None;
    };
    let i = game.cfg.colours.iter().position(|c| c == name)?;
    u8::try_from(i).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_sees_faces_up_and_its_own() {
        let me = Seat::Player(1);
        assert!(me.sees_face(true, Place::Supply));
        assert!(!me.sees_face(false, Place::Supply));
        assert!(me.sees_face(false, Place::Hand(1)));
        assert!(!me.sees_face(false, Place::Hand(0)));
        assert!(me.sees_face(false, Place::PlayerHolding(0, 1)));
        assert!(!me.sees_face(false, Place::PlayerHolding(0, 0)));
        assert!(!me.sees_face(false, Place::Square(3)));
        assert!(Seat::Everyone.sees_face(false, Place::Square(3)));
    }
}
