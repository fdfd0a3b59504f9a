//! The page's section on the turn and the end of the game, from what the rules use: the phases of
//! the actions in force, the triggers of the rules, whether any rule scores at the end, and where
//! chips may lie face down. Each line names the rules and actions (by heading) that apply there.

use super::page::{Item, Page};
use crate::lang::phrases::phase_phrase;

/// What the section needs beyond the page's items.
pub(crate) struct Facts {
    /// The variant has a map (placement next to placed tiles on land squares).
    pub(crate) map: bool,
    /// The map's start squares, and how many a game uses.
    pub(crate) starts: Vec<String>,
    pub(crate) starts_used: usize,
    /// Some rule or action puts chips into a hand face down.
    pub(crate) hand_face_down: bool,
}

/// The section, as Markdown paragraphs and list lines.
pub(crate) fn section(p: &Page, f: &Facts) -> Vec<String> {
    let mut out = vec![before_first_turn(p, f)];
    out.push("Players take turns in order. On your turn:".to_string());
    out.push(place_tile(p, f));
    out.push(place_follower(p));
    out.push(score_step(p));
    out.extend(after_the_turn(p));
    out.extend(at_any_moment(p));
    out.push(the_end(p));
    out.extend(face_down_chips(p, f));
    out.extend(rule_order(p));
    out
}

/// The order the rules run in, for each trigger two or more rules listen to (the page's rules are
/// in the program's order, which is the order they run in).
fn rule_order(p: &Page) -> Option<String> {
    let mut triggers: Vec<&str> = Vec::new();
    for r in &p.rules {
        if !triggers.contains(&r.trigger.as_str()) {
            triggers.push(&r.trigger);
        }
    }
    let lines: Vec<String> = triggers
        .into_iter()
        .filter_map(|t| {
            let on: Vec<String> = rules(p, &|r| r.trigger == t)
                .iter()
                .map(|r| format!("*{}*", r.heading))
                .collect();
            let phrase = crate::lang::builtins::Trigger::from_name(t)?.phrase();
            (on.len() > 1).then(|| format!("{phrase}, {}", on.join(" then ")))
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    Some(format!(
        "**The order of the rules.** Rules on one event run one after another, in the order of the rules files (an imported file's first; a replaced or changed rule keeps its place), each seeing what the ones before it did: {}.",
        lines.join("; ")
    ))
}

/// The rules of a page that `pred` picks (by trigger).
fn rules<'a>(p: &'a Page, pred: &dyn Fn(&Item) -> bool) -> Vec<&'a Item> {
    p.rules.iter().filter(|r| pred(r)).collect()
}

/// The actions offered in a phase.
fn actions<'a>(p: &'a Page, phase: &str) -> Vec<&'a Item> {
    p.actions.iter().filter(|a| a.phase == phase).collect()
}

/// 1. The tile.
fn place_tile(p: &Page, f: &Facts) -> String {
    let mut one = String::from("1. **Place a tile.** ");
    let start = actions(p, "start");
    if !start.is_empty() {
        one.push_str(&format!(
            "Instead of drawing you may take {}. ",
            with_limits(&start)
        ));
    }
    one.push_str("Draw the top tile of the draw stack and place it ");
    one.push_str(if f.map {
        "on a free land square of the map next to a placed tile (or next to a large city a tile already touches), "
    } else {
        "next to a tile already on the table, "
    });
    one.push_str(
        "every side matching the sides it touches. A tile that fits nowhere is put out of the game and you draw another.",
    );
    let drawn = rules(p, &|r| r.trigger == "tile_drawn");
    if !drawn.is_empty() {
        one.push_str(&format!(
            " Drawing a tile that fits, before you place it, sets off {}.",
            names(&drawn)
        ));
    }
    if f.map {
        one.push_str(
            " A side facing sea, a large city or the edge of the map needs no match, and a road or city running into it is closed there (a road ends at the coast). A large city is no player's city: a farm next to it does not count it as a completed city.",
        );
    }
    let placed = rules(p, &|r| {
        matches!(r.trigger.as_str(), "placed" | "adjacent" | "abroad")
    });
    if !placed.is_empty() {
        one.push_str(&format!(" Placing it can set off {}.", names(&placed)));
    }
    one
}

/// 2. The follower.
fn place_follower(p: &Page) -> String {
    let mut two = String::from(
        "2. **Place a follower (phase 2).** You may put one follower from your reserve on a road (as a thief), city (a knight), monastery (a monk) or field (a farmer; a field is a farm) of the tile you just placed, if no follower stands anywhere on the feature it joins.",
    );
    if p.followers == 0 {
        two.push_str(" (This variant gives each player no followers.)");
    }
    let fp = rules(p, &|r| r.trigger == "follower_placed");
    if !fp.is_empty() {
        two.push_str(&format!(" Placing one sets off {}.", names(&fp)));
    }
    let follower = actions(p, "follower");
    if !follower.is_empty() {
        two.push_str(&format!(" Then you may take {}.", with_limits(&follower)));
    }
    two
}

/// 3. Scoring.
fn score_step(p: &Page) -> String {
    let mut three = String::from("3. **Score (phase 3).** ");
    let in_turn = rules(p, &|r| r.trigger == "scored" && !r.final_only);
    if in_turn.is_empty() {
        three.push_str("No rule scores a feature during the game.");
    } else {
        three.push_str(&format!(
            "Each road, city and monastery completed by the tile just placed is scored at once, with followers on it or not: {}. Its followers then go back to their owners' reserves; a feature left incomplete keeps its followers until it is completed or the game ends. A farm is never completed: farmers stay on it to the end of the game.",
            names(&in_turn)
        ));
    }
    let back = rules(p, &|r| r.trigger == "returned");
    if !back.is_empty() {
        three.push_str(&format!(
            " A follower coming back sets off {}.",
            names(&back)
        ));
    }
    let score = actions(p, "score");
    if !score.is_empty() {
        three.push_str(&format!(" Then you may take {}.", with_limits(&score)));
    }
    three
}

/// 4. After the turn: rules at its start and end, actions after it (none: no paragraph).
fn after_the_turn(p: &Page) -> Option<String> {
    let after = actions(p, "after");
    let end_turn = rules(p, &|r| {
        matches!(r.trigger.as_str(), "turn_end" | "round_end")
    });
    let start_turn = rules(p, &|r| r.trigger == "turn_start");
    if after.is_empty() && end_turn.is_empty() && start_turn.is_empty() {
        return None;
    }
    let mut four = String::from("4. **After the turn.** ");
    if !start_turn.is_empty() {
        four.push_str(&format!("(At its start: {}.) ", names(&start_turn)));
    }
    if !end_turn.is_empty() {
        four.push_str(&format!("The turn ends with {}. ", names(&end_turn)));
    }
    if !after.is_empty() {
        let then = if four.ends_with(". ") {
            "Then you"
        } else {
            "You"
        };
        four.push_str(&format!("{then} may take {}.", with_limits(&after)));
    }
    Some(four.trim_end().to_string())
}

/// Forced actions, and actions a rule asks of any player.
fn at_any_moment(p: &Page) -> Vec<String> {
    let mut out = Vec::new();
    let forced: Vec<&Item> = p.actions.iter().filter(|a| a.kind == "forced").collect();
    if !forced.is_empty() {
        out.push(format!(
            "At any moment of your turn, as soon as its condition holds, you must take {}.",
            names(&forced)
        ));
    }
    let asked: Vec<&Item> = p
        .actions
        .iter()
        .filter(|a| a.kind == "action" && a.phase.is_empty() && a.when.contains(" asks a player"))
        .collect();
    if !asked.is_empty() {
        let who = if asked.iter().all(|a| a.when.starts_with("when a rule asks")) {
            "A rule"
        } else {
            "A rule or an action"
        };
        out.push(format!(
            "{who} may ask any player to decide {}; the asked player answers before play goes on.",
            names(&asked)
        ));
    }
    out
}

/// The end of the game: what is scored then, and that nothing else is.
fn the_end(p: &Page) -> String {
    let mut end = String::from(
        "**The end of the game.** The game ends when the draw stack is empty. Then every feature still incomplete and every farm is scored, with followers on it or not (one nobody holds has no winners)",
    );
    let finals = rules(p, &|r| r.trigger == "scored" && r.final_only);
    let all_scored = rules(p, &|r| r.trigger == "scored");
    if all_scored.is_empty() {
        end.push_str(" (no rule gives points for them)");
    } else {
        end.push_str(&format!(": {}", names(&all_scored)));
        if !finals.is_empty() && finals.len() < all_scored.len() {
            end.push_str(&format!(" ({} only then)", names(&finals)));
        }
    }
    end.push('.');
    let game_end = rules(p, &|r| r.trigger == "game_end");
    if !game_end.is_empty() {
        end.push_str(&format!(" Then {}.", names(&game_end)));
    }
    let ends_scoring = game_end.iter().any(|r| r.scores);
    if !ends_scoring {
        end.push_str(" Nothing else scores at the end");
        if p.chips > 0 {
            end.push_str(": chips left in hands, on the map or anywhere else score nothing");
        }
        end.push('.');
    }
    end.push_str(" The player with the most points wins; tied players share the victory.");
    end
}

/// Who may look at face-down chips (a variant with chips).
fn face_down_chips(p: &Page, f: &Facts) -> Option<String> {
    if p.chips == 0 {
        return None;
    }
    let mut look = String::from(
        "**Face-down chips.** No one may look at a face-down chip on the map, in the supply or set aside.",
    );
    if f.hand_face_down {
        look.push_str(
            " A chip face down in your hand: you may look at it; the other players may not.",
        );
    }
    look.push_str(" A face-up chip is open to everyone.");
    Some(look)
}

/// Before the first turn: the followers, and the tiles on the start squares.
fn before_first_turn(p: &Page, f: &Facts) -> String {
    let mut out = format!(
        "**Before the first turn.** Each player takes {} in their colour (their reserve). ",
        count(p.followers as usize, "follower")
    );
    if p.chips > 0 {
        out.push_str(&format!(
            "The {} start face down in the supply; the setup rules below say where they go. ",
            count(p.chips, "chip")
        ));
    }
    if !f.map || f.starts.is_empty() {
        out.push_str("The start tile is put face up in the middle of the table; every other tile is shuffled face down into the draw stack.");
        return out;
    }
    let used = f.starts_used.min(f.starts.len());
    let list = and_list(&f.starts, "or");
    if used == f.starts.len() {
        let all = match used {
            1 => "The".to_string(),
            2 => "Both".to_string(),
            n => format!("All {n}"),
        };
        let noun = if used == 1 {
            "start square"
        } else {
            "start squares"
        };
        out.push_str(&format!(
            "{all} {noun} ({}) {} used. ",
            and_list(&f.starts, "and"),
            if used == 1 { "is" } else { "are" }
        ));
    } else {
        out.push_str(&format!(
            "{} of the {} start squares ({list}) {} chosen at random (or named with `--starts`); the {} plain land with a town. ",
            used,
            f.starts.len(),
            if used == 1 { "is" } else { "are" },
            if f.starts.len() - used == 1 { "other is" } else { "others are" }
        ));
    }
    out.push_str("The start tile goes face up on the first start square in use; the other tiles are shuffled face down into the draw stack");
    if used > 1 {
        out.push_str(
            ", and its top tile, turned at random, goes on each other start square in use",
        );
    }
    out.push_str(". Tiles are placed only next to these and the tiles placed after them.");
    out
}

/// "1 follower", "7 followers".
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// "A, B and C".
fn and_list(items: &[String], word: &str) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} {word} {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// Actions with their limits, as choices: "*Sell abroad* (once per turn, shared with *sell town*)
/// or *Sell town* (…)".
fn with_limits(items: &[&Item]) -> String {
    let texts: Vec<String> = items
        .iter()
        .map(|a| {
            let phase = phase_phrase(&a.phase).unwrap_or("");
            let mut limits = a
                .when
                .strip_prefix(phase)
                .unwrap_or(&a.when)
                .trim_start_matches(", ")
                .to_string();
            // Taking an action offers its phase again: with no count it may be taken again and
            // again (instead of drawing, the tile it gives ends the choice).
            if a.phase != "start" && !limits.contains(" per ") {
                let again = "any number of times, while its condition holds";
                limits = if limits.is_empty() {
                    again.to_string()
                } else {
                    format!("{limits}, {again}")
                };
            }
            if limits.is_empty() {
                format!("*{}*", a.heading)
            } else {
                format!("*{}* ({limits})", a.heading)
            }
        })
        .collect();
    and_list(&texts, "or")
}

/// "*Road*, *City* and *Farm*": headings in italics, as the rows below name them.
fn names(items: &[&Item]) -> String {
    let mut names: Vec<String> = items.iter().map(|i| format!("*{}*", i.heading)).collect();
    names.dedup();
    match names.len() {
        0 => String::new(),
        1 => names.remove(0),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}
