//! The board as text for a terminal: each square three characters wide and three high, coordinates
//! along the top and the left, followers and chips marked in corners, and a legend below.

use crate::board::CellKind;
use crate::game::{Game, Hooks};
use crate::geometry::EdgeKind;
use crate::sight::{ChipSight, Seat};
use crate::state::{FollowerAt, Place};

type Block = [[u8; 3]; 3];

/// The board (the whole map, or the placed tiles on the endless table) with coordinates and a legend,
/// every chip's face shown (a finished game, a transcript: [`Seat::Everyone`]).
pub fn ascii_board<H: Hooks>(game: &Game<H>) -> String {
    ascii_board_for(game, Seat::Everyone)
}

/// The board as `seat` sees it ([`Seat::chip_now`]): a face-down chip it may not see is `*`, or the
/// letter of the colour the map prints under it in lower case.
pub fn ascii_board_for<H: Hooks>(game: &Game<H>, seat: Seat) -> String {
    let Some((x0, y0, x1, y1)) = bounds(game) else {
        return String::new();
    };
    let letters = colour_letters(&game.cfg.colours);
    let mut out = column_labels(x0, x1);
    for y in y0..=y1 {
        let mut rows = [String::new(), String::new(), String::new()];
        for x in x0..=x1 {
            let block = match game.st.board.cell_at(x, y) {
                Some(c) => square_block(game, c, &letters, seat),
                None => [*b"   "; 3],
            };
            for (r, row) in rows.iter_mut().enumerate() {
                row.push_str(std::str::from_utf8(&block[r]).unwrap_or("   "));
            }
        }
        for (r, row) in rows.iter().enumerate() {
            let label = if r == 1 {
                format!("{y:>4} ")
            } else {
                "     ".to_string()
            };
            out.push_str(format!("{label}{row}").trim_end());
            out.push('\n');
        }
    }
    out.push_str(&legend(game, &letters, seat));
    out
}

fn bounds<H: Hooks>(game: &Game<H>) -> Option<(i32, i32, i32, i32)> {
    if let Some(m) = &game.cfg.map {
        return Some((0, 0, m.width - 1, m.height - 1));
    }
    let b = &game.st.board;
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for p in &b.placed {
        let (x, y) = b.xy(p.cell);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    (x0 <= x1).then_some((x0, y0, x1, y1))
}

/// x over the middle of each column; when a label needs three characters, over every second column.
fn column_labels(x0: i32, x1: i32) -> String {
    let wide = (x0..=x1).any(|x| !(-9..=99).contains(&x));
    let mut s = "     ".to_string();
    for x in x0..=x1 {
        if wide && (x - x0) % 2 == 1 {
            s.push_str("   ");
        } else if wide {
            s.push_str(&format!("{x:>3}"));
        } else {
            s.push_str(&format!("{x:>2} "));
        }
    }
    format!("{}\n", s.trim_end())
}

/// One letter per chip colour: its first letter not taken by an earlier colour.
pub(crate) fn colour_letters(colours: &[String]) -> Vec<u8> {
    let mut taken: Vec<u8> = Vec::new();
    for c in colours {
        let pick = c
            .bytes()
            .map(|b| b.to_ascii_lowercase())
            .chain(b'a'..=b'z')
            .find(|b| b.is_ascii_lowercase() && !taken.contains(b))
            .unwrap_or(b'?');
        taken.push(pick);
    }
    taken
}

fn square_block<H: Hooks>(game: &Game<H>, cell: u32, letters: &[u8], seat: Seat) -> Block {
    let mut blk = if game.st.board.tile[cell as usize] == crate::features::NONE {
        empty_square(game, cell)
    } else {
        tile_block(game, cell)
    };
    mark_followers(game, cell, &mut blk);
    mark_chips(game, cell, letters, seat, &mut blk);
    blk
}

fn empty_square<H: Hooks>(game: &Game<H>, cell: u32) -> Block {
    let b = &game.st.board;
    let fill = match b.kind[cell as usize] {
        CellKind::Water => b'~',
        CellKind::LargeCity => b'#',
        CellKind::Land => b' ',
    };
    let mut blk = [[fill; 3]; 3];
    if fill == b' ' {
        if let Some(m) = &game.cfg.map {
            let town = m
                .squares
                .get(b.square[cell as usize] as usize)
                .is_some_and(|s| s.town);
            blk[1][1] = if town { b't' } else { b'.' };
        }
    }
    blk
}

fn tile_block<H: Hooks>(game: &Game<H>, cell: u32) -> Block {
    let b = &game.st.board;
    let p = b.placed[b.tile[cell as usize] as usize];
    let tile = &game.cfg.tiles[p.ty as usize];
    tile_glyph(tile, p.rot as usize, p.monastery != crate::compiled::NO_SEG)
}

/// A tile at rotation `rot` as three rows of three characters: its sides (C city, | - road, .
/// field) around its middle (M monastery, C a city across it, + a road's end or crossing).
pub(crate) fn tile_glyph(
    tile: &crate::compiled::CompiledTile,
    rot: usize,
    monastery: bool,
) -> Block {
    let mut blk = [[b'.'; 3]; 3];
    let pos = [(0, 1), (1, 2), (2, 1), (1, 0)];
    let mut roads = 0;
    let mut cities = 0;
    for (s, &(r, c)) in pos.iter().enumerate() {
        blk[r][c] = match tile.edge(rot, s) {
            EdgeKind::City => {
                cities += 1;
                b'C'
            }
            EdgeKind::Road => {
                roads += 1;
                if s % 2 == 0 {
                    b'|'
                } else {
                    b'-'
                }
            }
            EdgeKind::Field => b'.',
        };
    }
    blk[1][1] = if monastery {
        b'M'
    } else if cities >= 2 && tile.kinds.contains(&crate::geometry::FeatureKind::City) {
        b'C'
    } else if roads > 0 {
        b'+'
    } else {
        b'.'
    };
    blk
}

/// Followers as their owner's number, in the top corners.
fn mark_followers<H: Hooks>(game: &Game<H>, cell: u32, blk: &mut Block) {
    let mut corner = 0;
    for fo in &game.st.followers {
        if matches!(fo.at, FollowerAt::Board(_)) && fo.cell == cell && corner < 2 {
            blk[0][corner * 2] = b'1' + fo.owner;
            corner += 1;
        }
    }
}

/// Chips on the square or its slots as `seat` sees them: the colour's letter bottom right (upper case
/// when face up; `*` for a face-down chip whose colour is hidden), their number bottom left when more
/// than one.
fn mark_chips<H: Hooks>(game: &Game<H>, cell: u32, letters: &[u8], seat: Seat, blk: &mut Block) {
    if game.st.on_square.get(cell as usize).is_none_or(|&n| n == 0) && !has_slot_chip(game, cell) {
        return;
    }
    let mut count = 0u32;
    for (id, c) in game.st.chips.iter().enumerate() {
        let here = match c.place {
            Place::Square(s) | Place::Slot(s, _) => s == cell,
            _ => false,
        };
        if here {
            count += 1;
            let letter = |colour: u8| letters.get(colour as usize).copied().unwrap_or(b'?');
            blk[2][2] = match seat.chip_now(game, id) {
                ChipSight::Face { colour, .. } if c.face_up => letter(colour).to_ascii_uppercase(),
                ChipSight::Face { colour, .. } | ChipSight::Printed { colour } => letter(colour),
                ChipSight::Back => b'*',
            };
        }
    }
    if count > 1 {
        blk[2][0] = if count > 9 { b'+' } else { b'0' + count as u8 };
    }
}

fn has_slot_chip<H: Hooks>(game: &Game<H>, cell: u32) -> bool {
    game.st
        .chips
        .iter()
        .any(|c| matches!(c.place, Place::Slot(s, _) if s == cell))
}

fn legend<H: Hooks>(game: &Game<H>, letters: &[u8], seat: Seat) -> String {
    let mut s = String::from(
        "legend: x across the top, y down the side; a tile shows C city, | - road, + road end or crossing,\n\
         \x20       M monastery, . field; empty squares: . land, t town, ~ sea, # large city\n",
    );
    let players: Vec<String> = game
        .st
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{} {}", i + 1, p.name))
        .collect();
    s.push_str(&format!(
        "        followers (top corners): {}\n",
        players.join(", ")
    ));
    if !game.st.chips.is_empty() {
        let colours: Vec<String> = game
            .cfg
            .colours
            .iter()
            .zip(letters)
            .map(|(c, &l)| format!("{} {c}", l as char))
            .collect();
        let hidden = match seat {
            Seat::Everyone => "",
            Seat::Player(_) => ", * face down",
        };
        s.push_str(&format!(
            "        chips (bottom right, upper case when face up, with their number bottom left when more than one): {}{hidden}\n",
            colours.join(", ")
        ));
    }
    s
}
