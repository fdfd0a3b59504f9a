//! Options as people and scripts write them (`place T at 1,2 r90`, `follower city N`), finding an
//! option by name, and saying why a named move is not legal.

use super::{Game, Hooks, Opt, Phase};
use crate::board::Refusal;
use crate::compiled::CompiledTile;
use crate::geometry::{rotation_degrees, FeatureKind, HALF_NAMES};
use crate::sight::Seat;

impl<H: Hooks> Game<H> {
    /// The name of an option, as scripts, transcripts and people write it.
    pub fn option_name(&self, opt: Opt) -> String {
        match opt {
            Opt::Draw => "draw".into(),
            Opt::Pass => "pass".into(),
            Opt::Place { cell, rot } => {
                let id = self
                    .st
                    .current_tile
                    .map(|t| self.cfg.tiles[t as usize].id.as_str())
                    .unwrap_or("?");
                let (x, y) = self.st.board.xy(cell);
                format!("place {id} at {x},{y} r{}", rotation_degrees(rot as usize))
            }
            Opt::Follower { seg } => {
                let Some(p) = self.st.board.placed.get(self.st.placed_now as usize) else {
                    return "follower".into();
                };
                let t = &self.cfg.tiles[p.ty as usize];
                let s = seg as usize;
                format!("follower {}", segment_name(t, s, p.rot as usize))
            }
            Opt::Action(h) => self.hooks.action_name(&self.st, h),
        }
    }

    /// The name of an option as `seat` sees it: the name the log records ([`Self::option_name`], the
    /// decider's) but for chips `seat` may not see, which are named by where they lie (what the
    /// terminal shows a person of another player's choice).
    pub fn option_name_for(&self, opt: Opt, seat: Seat) -> String {
        match opt {
            Opt::Action(h) => self.hooks.action_name_for(&self.st, h, seat),
            _ => self.option_name(opt),
        }
    }

    /// The option named `name` as everyone sees it ([`Seat::Everyone`]: every chip by its face), as a
    /// log written before options named a chip the decider may not see `down@PLACE` names it
    /// (docs/format-log.md). Only a replay asks this: a person naming a hidden face would learn it.
    pub fn find_option_by_faces(&self, name: &str) -> Option<usize> {
        let want = canonical_option(name);
        self.options
            .iter()
            .position(|&o| canonical_option(&self.option_name_for(o, Seat::Everyone)) == want)
    }

    /// Finds an option by name; when none has it, says why (which rule refused the move).
    pub fn find_option(&mut self, name: &str) -> Result<usize, String> {
        let want = canonical_option(name);
        if let Some(i) = self
            .options
            .iter()
            .position(|&o| canonical_option(&self.option_name(o)) == want)
        {
            return Ok(i);
        }
        // A rotation that is the same placement as a listed one (`U r180` for `U r0`) is that one.
        if let Some(i) = self.same_placement_listed(name) {
            return Ok(i);
        }
        // A feature named by part of its sides or halves (`field Ne`), when that part names one.
        let part = match self.follower_by_part(name) {
            Some(Ok(i)) => return Ok(i),
            Some(Err(why)) => Some(why),
            None => None,
        };
        let mut why = String::new();
        let now = if self.forced_pending || self.decided {
            None
        } else if self.asked.is_some() {
            // A decision a rule asked for: its options are the asked action's.
            Some(Phase::Asked)
        } else {
            self.offer_phase
        };
        if let Some(w) = self.hooks.explain(&mut self.st, now, name) {
            why = w;
        } else if let Some(rest) = name.strip_prefix("place ") {
            why = self.why_not_place(rest);
        } else if name.starts_with("follower") {
            if !self
                .options
                .iter()
                .any(|o| matches!(o, Opt::Follower { .. }))
            {
                why = "follower placement: no follower can be placed now (none left, or this is not the follower step)".into();
            } else {
                why = part.unwrap_or_else(|| {
                    "follower placement: that feature is already occupied or is not on this tile"
                        .into()
                });
            }
        }
        if let Some(w) = self.phase_end_refusal(name) {
            why = w;
        }
        if let (true, Some(p)) = (why.is_empty() && name == "pass", self.follower_skipped) {
            let who = self
                .st
                .players
                .get(p as usize)
                .map_or("?", |p| p.name.as_str());
            why = format!(
                "{who} had no follower left, so the follower step after the tile was skipped \
                 (no `pass` is written for it)"
            );
        }
        let names: Vec<String> = self
            .options
            .iter()
            .take(12)
            .map(|&o| self.option_name(o))
            .collect();
        let more = if self.options.len() > 12 {
            format!(" … ({} in all)", self.options.len())
        } else {
            String::new()
        };
        Err(format!(
            "`{name}` is not a legal option here ({}){}{}\n  legal: {}{more}",
            self.decision_label(now),
            if why.is_empty() { "" } else { ": " },
            why,
            names.join(" | ")
        ))
    }

    /// Why `name` was refused, for the player whose phase of actions ended after their last one,
    /// when the pending decision is someone else's (or another turn's): a move still aimed at that
    /// phase is explained for that player and that moment, not for the next decision.
    fn phase_end_refusal(&self, name: &str) -> Option<String> {
        let pe = self.phase_end.as_deref()?;
        if pe.player == self.decider() && pe.turn == self.st.turn {
            return None;
        }
        let word = name.split_whitespace().next()?;
        let (_, reason) = pe.reasons.iter().find(|(n, _)| n == word)?;
        let who = self.st.players.get(pe.player as usize)?.name.as_str();
        Some(format!(
            "{who}'s phase of actions on turn {} ended after their last action: {reason}",
            pe.turn
        ))
    }

    /// The pending decision, for people (turn, player and step), or `None` when the game is over
    /// or no decision is pending.
    pub fn pending_decision(&self) -> Option<String> {
        if self.decided {
            return None;
        }
        let now = if self.forced_pending {
            None
        } else {
            self.offer_phase
        };
        Some(self.decision_label(now))
    }

    /// What the pending decision is, for people: turn, player and step.
    fn decision_label(&self, now: Option<Phase>) -> String {
        let who = self
            .st
            .players
            .get(self.decider() as usize)
            .map(|p| p.name.as_str())
            .unwrap_or("?");
        let what = match (self.options.first(), now) {
            _ if self.decided => "the game is over".to_string(),
            _ if self.asked.is_some() => {
                let action = self.options.iter().find_map(|&o| match o {
                    Opt::Action(_) => self.option_name(o).split(' ').next().map(String::from),
                    _ => None,
                });
                format!("asked by a rule: `{}` or pass", action.unwrap_or_default())
            }
            _ if self.forced_pending => "a forced action".to_string(),
            (Some(Opt::Place { .. }), _) => "placing the tile".to_string(),
            (Some(Opt::Draw), _) => "drawing a tile or an action instead".to_string(),
            _ if self
                .options
                .iter()
                .any(|o| matches!(o, Opt::Follower { .. })) =>
            {
                "placing a follower".to_string()
            }
            (_, Some(p)) => format!("the actions of phase {}", format!("{p:?}").to_lowercase()),
            _ => "placing a follower".to_string(),
        };
        format!("turn {}, {who}: {what}", self.st.turn)
    }

    /// The listed placement that `place ID at X,Y rDEG` is the same as, when its rotation is not
    /// listed because an equal one is (a symmetric tile).
    fn same_placement_listed(&self, name: &str) -> Option<usize> {
        let rest = name.strip_prefix("place ")?;
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let [id, "at", at, r] = parts[..] else {
            return None;
        };
        let tile = &self.cfg.tiles[self.st.current_tile? as usize];
        if tile.id != id {
            return None;
        }
        let (x, y) = at.split_once(',')?;
        let cell = self.st.board.cell_at(x.parse().ok()?, y.parse().ok()?)?;
        let rot = match r.strip_prefix('r')?.parse::<u32>().ok()? {
            d @ (0 | 90 | 180 | 270) => d as usize / 90,
            _ => return None,
        };
        self.options.iter().position(|&o| match o {
            Opt::Place { cell: c, rot: d } => c == cell && same_placement(tile, rot, d as usize),
            _ => false,
        })
    }

    /// `follower KIND PARTS` where PARTS (sides `N`, or halves `Ne`, joined by `+`) are some of one
    /// feature's: the follower option on it (`Ok`), or why not (`Err`: the feature is held, or the
    /// tile has no such feature, or the parts name more than one); `None` when `name` is no
    /// follower placement or no follower step is pending.
    fn follower_by_part(&self, name: &str) -> Option<Result<usize, String>> {
        let rest = name.strip_prefix("follower ")?;
        let (kind, parts) = rest.split_once(' ').unwrap_or((rest, ""));
        if !self
            .options
            .iter()
            .any(|o| matches!(o, Opt::Follower { .. }))
        {
            return None;
        }
        let placed = self.st.board.placed.get(self.st.placed_now as usize)?;
        let t = &self.cfg.tiles[placed.ty as usize];
        let want: Vec<&str> = parts.split('+').filter(|p| !p.is_empty()).collect();
        let matching: Vec<usize> = (0..t.kinds.len())
            .filter(|&seg| {
                let full = segment_name(t, seg, placed.rot as usize);
                let mut words = full.split(' ');
                let k = words.next().unwrap_or("");
                let have: Vec<&str> = words.next().unwrap_or("").split('+').collect();
                // A side (`N`) names the halves on it too (`Nw`, `Ne`): a field touching it.
                let touches = |w: &&str| {
                    have.iter()
                        .any(|h| h == w || (w.len() == 1 && h.starts_with(*w)))
                };
                k == kind && want.iter().all(touches)
            })
            .collect();
        match matching[..] {
            [] => Some(Err(format!(
                "follower placement: this tile has no {kind} touching {}",
                if want.is_empty() { "that" } else { parts }
            ))),
            [seg] => Some(
                self.options
                    .iter()
                    .position(|&o| o == Opt::Follower { seg: seg as u8 })
                    .ok_or_else(|| {
                        format!(
                            "follower placement: the {} is already held (a follower is on the \
                             feature it belongs to)",
                            segment_name(t, seg, placed.rot as usize)
                        )
                    }),
            ),
            _ => {
                let names: Vec<String> = matching
                    .iter()
                    .map(|&s| format!("`follower {}`", segment_name(t, s, placed.rot as usize)))
                    .collect();
                let what = if want.is_empty() {
                    format!("`follower {kind}`")
                } else {
                    format!("`{parts}`")
                };
                Some(Err(format!(
                    "follower placement: {what} names more than one {kind} of this tile: {}",
                    names.join(", ")
                )))
            }
        }
    }

    fn why_not_place(&self, rest: &str) -> String {
        // rest: "ID at X,Y rDEG"
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let (Some(id), Some(at), Some(r)) = (parts.first(), parts.get(2), parts.get(3)) else {
            return "write it as `place TILE at X,Y rDEG`".into();
        };
        let Some(ty) = self.st.current_tile else {
            if self.options.contains(&Opt::Draw) {
                return "no tile is drawn yet: this decision comes first (write `draw`, or a \
                        start-of-turn action)"
                    .into();
            }
            return "no tile is to be placed now".into();
        };
        let tile = &self.cfg.tiles[ty as usize];
        if tile.id != *id {
            return format!("the tile to place is {}, not {id}", tile.id);
        }
        let xy: Vec<i32> = at.split(',').filter_map(|v| v.parse().ok()).collect();
        let rot = match r.strip_prefix('r').map(str::parse::<u32>) {
            Some(Ok(d @ (0 | 90 | 180 | 270))) => Some(d as usize / 90),
            Some(Ok(_)) => return format!("rotations are r0, r90, r180 and r270, not `{r}`"),
            _ => None,
        };
        let (Some(&x), Some(&y), Some(rot)) = (xy.first(), xy.get(1), rot) else {
            return "write it as `place TILE at X,Y rDEG`".into();
        };
        let Some(cell) = self.st.board.cell_at(x, y) else {
            return Refusal::OffBoard.to_string();
        };
        // This decision is not the placement: the turn's tile is placed already (an action phase
        // after it), so the move comes too late, whatever the board would say.
        if !self.options.iter().any(|o| matches!(o, Opt::Place { .. })) {
            let at = self
                .st
                .board
                .placed
                .get(self.st.placed_now as usize)
                .map(|p| {
                    let (x, y) = self.st.board.xy(p.cell);
                    format!(" (at {x},{y})")
                });
            return format!(
                "the tile of this turn is already placed{}: this decision comes after the placement",
                at.unwrap_or_default()
            );
        }
        match self.st.board.check(cell, tile, rot) {
            Err(e) => e.to_string(),
            Ok(()) => "the board would take it, but it is not among the placements listed".into(),
        }
    }

    /// The decision's option names (for transcripts and people).
    pub fn option_names(&self) -> Vec<String> {
        self.options.iter().map(|&o| self.option_name(o)).collect()
    }
}

/// An option name with the parts of every `a+b+c` word in one order, so that a set of chips (or of
/// sides) may be written in any order: `upgrade purple1+orange1` names `upgrade orange1+purple1`.
pub fn canonical_option(name: &str) -> String {
    let words: Vec<String> = name
        .split_whitespace()
        .map(|w| {
            let mut parts: Vec<&str> = w.split('+').collect();
            parts.sort_unstable();
            parts.join("+")
        })
        .collect();
    words.join(" ")
}

/// Whether rotations `a` and `b` of a tile are the same placement: the same features on the same
/// sides and halves (a straight road turned half round).
fn same_placement(t: &CompiledTile, a: usize, b: usize) -> bool {
    let sig = |r: usize| {
        let mut v: Vec<_> = (0..t.kinds.len())
            .map(|i| {
                (
                    t.kinds[i],
                    t.seg_sides[i][r],
                    t.seg_halves[i][r],
                    t.shields[i],
                )
            })
            .collect();
        v.sort_unstable();
        v
    };
    sig(a) == sig(b)
}

/// A segment named by its kind and the sides or halves it touches, e.g. `city N`, `road E+W`.
pub(crate) fn segment_name(t: &CompiledTile, seg: usize, rot: usize) -> String {
    let kind = t.kinds[seg];
    let mut parts: Vec<&str> = Vec::new();
    match kind {
        FeatureKind::Road | FeatureKind::City => {
            let m = t.seg_sides[seg][rot];
            for (s, name) in ["N", "E", "S", "W"].iter().enumerate() {
                if m & (1 << s) != 0 {
                    parts.push(name);
                }
            }
        }
        FeatureKind::Field => {
            let m = t.seg_halves[seg][rot];
            for (h, name) in HALF_NAMES.iter().enumerate() {
                if m & (1 << h) != 0 {
                    parts.push(name);
                }
            }
        }
        FeatureKind::Monastery => return "monastery".into(),
    }
    if parts.is_empty() {
        kind.name().to_string()
    } else {
        format!("{} {}", kind.name(), parts.join("+"))
    }
}
