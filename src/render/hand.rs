//! What the terminal's human seat sees of its turn beyond the board: the tile in hand drawn as the
//! board draws it, at each turning the placements name, and follower options in words ("farmer on
//! the field to the north").

use super::ascii::tile_glyph;
use crate::game::{Game, Hooks};

/// The tile in hand at r0, r90, r180 and r270, side by side, as the ASCII board draws tiles.
pub(crate) fn tile_in_hand<H: Hooks>(game: &Game<H>, ty: u16) -> String {
    let Some(t) = game.cfg.tiles.get(ty as usize) else {
        return String::new();
    };
    let mut out = format!(
        "tile in hand: {} (as the board draws it, at each turning)\n      r0     r90    r180   r270\n",
        t.id
    );
    let blocks: Vec<[[u8; 3]; 3]> = (0..4)
        .map(|r| tile_glyph(t, r, t.monastery.is_some()))
        .collect();
    for row in 0..3 {
        let mut line = String::from("     ");
        for b in &blocks {
            line.push_str(std::str::from_utf8(&b[row]).unwrap_or("   "));
            line.push_str("    ");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

const SIDES: [&str; 4] = ["north", "east", "south", "west"];
const HALVES: [&str; 8] = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"];

/// "north", "north and east", "north, east and south".
fn and_list(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Which way a feature lies from its sides or half-edges (`N+E`, `Nw+Ne+En+Wn`), in words.
fn direction(spec: &str) -> Option<String> {
    let mut sides = [false; 4];
    let mut halves = [false; 8];
    for part in spec.split('+') {
        if let Some(i) = ["N", "E", "S", "W"].iter().position(|s| *s == part) {
            sides[i] = true;
        } else if let Some(i) = HALVES.iter().position(|h| *h == part) {
            halves[i] = true;
        } else {
            return None;
        }
    }
    for s in 0..4 {
        if halves[2 * s] && halves[2 * s + 1] {
            sides[s] = true;
        }
    }
    let full: Vec<&str> = (0..4).filter(|&s| sides[s]).map(|s| SIDES[s]).collect();
    if full.len() == 4 {
        return Some("all around the tile".into());
    }
    if !full.is_empty() {
        return Some(format!("to the {}", and_list(&full)));
    }
    // Only halves of sides: the corners they meet at.
    let corners = [
        (1, 2, "north-east"),
        (3, 4, "south-east"),
        (5, 6, "south-west"),
        (7, 0, "north-west"),
    ];
    let mut words: Vec<&str> = Vec::new();
    let mut used = [false; 8];
    for (a, b, w) in corners {
        if halves[a] && halves[b] {
            words.push(w);
            (used[a], used[b]) = (true, true);
        }
    }
    for h in 0..8 {
        if halves[h] && !used[h] {
            // A lone half: the side's end toward its corner.
            words.push(match h {
                0 | 7 => "north-west",
                1 | 2 => "north-east",
                3 | 4 => "south-east",
                _ => "south-west",
            });
        }
    }
    words.dedup();
    (!words.is_empty()).then(|| format!("in the {} corner", and_list(&words)))
}

/// A follower option in words: "follower field Nw+Ne+En+Wn" → "farmer on the field to the north";
/// None for other options.
pub(crate) fn option_words(name: &str) -> Option<String> {
    let mut parts = name.split_whitespace();
    if parts.next()? != "follower" {
        return None;
    }
    let kind = parts.next()?;
    let spec = parts.next();
    let (role, feature) = match kind {
        "city" => ("knight", "city"),
        "road" => ("thief", "road"),
        "field" => ("farmer", "field"),
        "monastery" => return Some("monk on the monastery".into()),
        _ => return None,
    };
    let way = spec.and_then(direction).unwrap_or_default();
    Some(
        format!("{role} on the {feature} {way}")
            .trim_end()
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::option_words;

    #[test]
    fn follower_spots_in_words() {
        let w = |s: &str| option_words(s).unwrap_or_default();
        assert_eq!(
            w("follower field Nw+Ne+En+Wn"),
            "farmer on the field to the north"
        );
        assert_eq!(
            w("follower field Ne+En"),
            "farmer on the field in the north-east corner"
        );
        assert_eq!(
            w("follower field Nw+Ne+En+Es+Se+Sw+Ws+Wn"),
            "farmer on the field all around the tile"
        );
        assert_eq!(
            w("follower city N+E"),
            "knight on the city to the north and east"
        );
        assert_eq!(w("follower road S"), "thief on the road to the south");
        assert_eq!(w("follower monastery"), "monk on the monastery");
        assert_eq!(option_words("place U at 1,0 r0"), None);
        assert_eq!(option_words("pass"), None);
    }
}
