//! Actions: their limits per turn, round and group, the offers of a phase (every combination of
//! choices that passes the filters), running a chosen offer, naming it, and why one is refused.

use super::lower::TestId;
use super::{placed, Chosen, Interp, Offer, MAX_ACTIONS_PER_TURN, R};
use crate::game::Fault;
use crate::game::{Hooks, Opt, Phase};
use crate::ir::{Action, ChoiceKind, Expr, Limit, Value};
use crate::sight::Seat;
use crate::state::{Chip, Place, State};

impl Interp {
    pub(super) fn refresh_usage(&mut self, st: &State) {
        if self.run.seen_turn != st.turn {
            self.run.seen_turn = st.turn;
            self.run.actions_this_turn = 0;
            self.run.used_turn.iter_mut().for_each(|u| *u = 0);
            self.run.groups_used.iter_mut().for_each(|g| *g = 0);
        }
        let n = self.prog.actions.len() * st.players.len().max(1);
        if self.run.used_round.len() != n {
            self.run.used_round = vec![0; n];
        }
        if self.run.seen_round != (st.round, st.current) {
            if self.run.seen_round.0 != st.round {
                self.run.used_round.iter_mut().for_each(|u| *u = 0);
            }
            self.run.seen_round = (st.round, st.current);
        }
    }

    /// A limit's count with the parameters in force (0 if it cannot be worked out).
    fn count_of(&self, e: &Expr) -> i64 {
        self.prog.limit_count(e).unwrap_or(0)
    }

    pub(super) fn allowed(&self, st: &State, ai: usize, a: &Action) -> bool {
        a.limits.iter().all(|l| match l {
            Limit::PerTurn(n) => i64::from(self.run.used_turn[ai]) < self.count_of(n),
            Limit::PerRound(n) => {
                let k = st.current as usize * self.prog.actions.len() + ai;
                i64::from(self.run.used_round.get(k).copied().unwrap_or(0)) < self.count_of(n)
            }
            Limit::Group(g, n) => {
                let used = self.run.groups_used.get(*g as usize).copied().unwrap_or(0);
                i64::from(used) < n.as_ref().map_or(1, |n| self.count_of(n))
            }
            Limit::NoFollower => !st.follower_placed_now,
            Limit::NotExtra => !st.in_extra_turn,
        })
    }

    /// Why an action named at the start of `name` is not on offer now.
    pub(super) fn why_refused(
        &mut self,
        st: &mut State,
        now: Option<Phase>,
        name: &str,
    ) -> R<Option<String>> {
        let word = name.split_whitespace().next().unwrap_or("");
        let prog = self.prog.clone();
        let Some((ai, a)) = prog
            .actions
            .iter()
            .enumerate()
            .find(|(_, a)| a.name == word)
        else {
            return Ok(None);
        };
        if now == Some(Phase::Asked) {
            // The decision a rule asked for: its action's choices excluded the value (its `when`
            // held, or the decision would not have been offered); another action is not asked.
            let asked = self
                .run
                .ask_next
                .checked_sub(1)
                .and_then(|i| self.run.asks.get(i))
                .map(|r| r.action as usize);
            if asked == Some(ai) {
                return Ok(Some(self.refusing_choice(st, ai, a, name)));
            }
            let what = match asked.and_then(|i| prog.actions.get(i)) {
                Some(x) => format!("this decision asks for `{}` (or pass)", x.name),
                None => "this decision asks for another action (or pass)".to_string(),
            };
            let offered = match a.phase {
                Some(Phase::Asked) => "only when a rule asks for it (`ask`)".to_string(),
                None => "as a forced action".to_string(),
                p => format!("in {}", phase_name(p)),
            };
            return Ok(Some(format!(
                "action `{word}` is offered {offered}; {what}"
            )));
        }
        self.refresh_usage(st);
        if let Some(r) = a.limits.iter().find_map(|l| self.limit_refusal(st, ai, l)) {
            return Ok(Some(format!("action `{word}` is refused by its {r}")));
        }
        // An asked action's `when` reads the asked player and the action's parameters, which only
        // its `ask` gives: outside it, the condition is not run (it would read nothing that holds).
        let false_part = match &a.when {
            Some(_) if a.phase != Some(Phase::Asked) => self.false_part(st, ai, a)?,
            _ => None,
        };
        if a.phase != now {
            let when = false_part
                .map(|p| format!(", and its condition `{p}` is false now"))
                .unwrap_or_default();
            return Ok(Some(format!(
                "action `{word}` is offered in {}, not at this decision{when}",
                phase_name(a.phase)
            )));
        }
        if let Some(part) = false_part {
            return Ok(Some(format!(
                "action `{word}`: its condition `{part}` is false now"
            )));
        }
        Ok(Some(self.refusing_choice(st, ai, a, name)))
    }

    /// Why a limit of action `ai` refuses it now (`limit per turn 1`: already taken …), if it does.
    fn limit_refusal(&self, st: &State, ai: usize, l: &Limit) -> Option<String> {
        match l {
            Limit::PerTurn(n) => {
                let n = self.count_of(n);
                (i64::from(self.run.used_turn[ai]) >= n).then(|| {
                    format!(
                        "`limit per turn {n}`: already taken {} time(s) this turn",
                        self.run.used_turn[ai]
                    )
                })
            }
            Limit::PerRound(n) => {
                let n = self.count_of(n);
                let k = st.current as usize * self.prog.actions.len() + ai;
                let used = self.run.used_round.get(k).copied().unwrap_or(0);
                (i64::from(used) >= n).then(|| {
                    format!("`limit per round {n}`: already taken {used} time(s) this round")
                })
            }
            Limit::Group(g, n) => {
                let n = n.as_ref().map_or(1, |n| self.count_of(n));
                let used = self.run.groups_used.get(*g as usize).copied().unwrap_or(0);
                (i64::from(used) >= n).then(|| {
                    let group = self
                        .prog
                        .groups
                        .get(*g as usize)
                        .map(|s| s.as_str())
                        .unwrap_or("?");
                    format!(
                        "`limit group {group} {n}`: {used} action(s) of that group taken this turn"
                    )
                })
            }
            Limit::NoFollower => st
                .follower_placed_now
                .then(|| "`limit no_follower`: a follower was placed this turn".to_string()),
            Limit::NotExtra => st
                .in_extra_turn
                .then(|| "`limit not_extra`: this is an extra turn".to_string()),
        }
    }

    /// The first `and`-joined part of an action's `when` that is false now, as written; `None` when
    /// the condition holds.
    fn false_part(&mut self, st: &mut State, ai: usize, a: &Action) -> R<Option<String>> {
        let Some(when) = self.code.action_when[ai] else {
            return Ok(None);
        };
        // The `when` as lowered, run by the executor that decides the offers, in trace mode: the
        // part named is the one that was false when the condition was run.
        self.begin((self.prog.rules.len() + ai) as u16, st.turn);
        let saved = self.enter(a.body.locals.max(2));
        let traced = self
            .set(0, Value::Player(st.current))
            .and_then(|()| self.truth_traced(st, when));
        #[cfg(any(test, feature = "oracle"))]
        if let (Ok((_, part)), Some(w)) = (&traced, &a.when) {
            self.refusal_beside_walker(st, w, *part);
        }
        self.leave(saved);
        let Some(i) = traced?.1 else {
            return Ok(None);
        };
        let texts = &a.when_text;
        let mut parts = Vec::new();
        if let Some(w) = &a.when {
            w.conjuncts(&mut parts);
        }
        Ok(Some(
            match texts.get(i).filter(|_| texts.len() == parts.len()) {
                Some(t) => t.clone(),
                None => texts.join(" and "),
            },
        ))
    }

    /// Which choice of an action named in `name` refuses it: the first word after the action's name
    /// that no offered option has after the same earlier words (chips of a word in any order).
    fn refusing_choice(&self, st: &State, ai: usize, a: &Action, name: &str) -> String {
        let word = &a.name;
        let canon = |w: &str| crate::game::canonical_option(w);
        let raw: Vec<&str> = name.split_whitespace().skip(1).collect();
        let asked: Vec<String> = raw.iter().map(|w| canon(w)).collect();
        // Each offered option's words after the action's name: (as compared, as the game names it).
        let offered: Vec<Vec<(String, String)>> = (0..self.run.decision.offers.len())
            .filter(|&h| self.run.decision.offers[h].action as usize == ai)
            .map(|h| {
                self.action_name(st, h as u32)
                    .split_whitespace()
                    .skip(1)
                    .map(|w| (canon(w), w.to_string()))
                    .collect()
            })
            .collect();
        if offered.is_empty() {
            let names: Vec<String> = a.choices.iter().map(|c| format!("`{}`", c.name)).collect();
            return format!(
                "action `{word}`: no choice of {} meets its lists and `where` conditions now",
                names.join(", ")
            );
        }
        for (i, ch) in a.choices.iter().enumerate() {
            let same_before = offered.iter().filter(|o| {
                o.len() > i
                    && o[..i].iter().map(|(c, _)| c).eq(asked.iter().take(i))
                    && asked.len() >= i
            });
            let mut allowed: Vec<&(String, String)> = Vec::new();
            for o in same_before {
                if !allowed.iter().any(|(c, _)| *c == o[i].0) {
                    allowed.push(&o[i]);
                }
            }
            let more = if allowed.len() > 12 { " …" } else { "" };
            let shown: Vec<&str> = allowed.iter().take(12).map(|(_, r)| r.as_str()).collect();
            let shown = format!("{}{more}", shown.join(" | "));
            match asked.get(i) {
                None => {
                    return format!(
                        "action `{word}`: choice `{}` is missing (allowed: {shown})",
                        ch.name
                    )
                }
                Some(w) if !allowed.iter().any(|(c, _)| c == w) => {
                    return format!(
                        "action `{word}`: choice `{}` cannot be `{}` here: its list or `where` condition excludes it (allowed: {shown})",
                        ch.name, raw[i]
                    )
                }
                _ => {}
            }
        }
        format!(
            "action `{word}`: the option is written with {} choice(s), it takes {}",
            asked.len(),
            a.choices.len()
        )
    }

    /// No offers pending.
    pub(super) fn clear_offers(&mut self) {
        self.run.clear_decision();
    }

    /// Lists the offers of every action of `phase` (`None`: forced actions); true when the `when` of
    /// at least one of them (allowed by its limits) was true.
    pub(super) fn collect(
        &mut self,
        st: &mut State,
        phase: Option<Phase>,
        out: &mut Vec<Opt>,
    ) -> R<bool> {
        self.clear_offers();
        // A phase no action is offered in (most of them) has nothing to list.
        if !self.prog.actions.iter().any(|a| a.phase == phase) {
            return Ok(false);
        }
        self.refresh_usage(st);
        let mut any_when = false;
        let prog = self.prog.clone();
        for (ai, a) in prog.actions.iter().enumerate() {
            if a.phase != phase {
                continue;
            }
            if !self.allowed(st, ai, a) {
                continue;
            }
            self.begin((prog.rules.len() + ai) as u16, st.turn);
            let saved = self.enter(a.body.locals.max(2));
            self.set(0, Value::Player(st.current))?;
            let ok = match self.code.action_when[ai] {
                Some(w) => self.truth(st, w).map_err(|e| placed(e, a.when_at))?,
                None => true,
            };
            if ok {
                any_when = true;
                let mut chosen = std::mem::take(&mut self.chosen);
                chosen.clear();
                self.enumerate(st, ai as u32, st.current, a, 0, &mut chosen, out)?;
                self.chosen = chosen;
            }
            self.leave(saved);
        }
        Ok(any_when)
    }

    /// Lists every offer of action `a` from its choice `k` on: each value of the choice that passes
    /// its `where`, then the next choice for each; an offer when no choice is left.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn enumerate(
        &mut self,
        st: &mut State,
        ai: u32,
        player: u8,
        a: &Action,
        k: usize,
        chosen: &mut Vec<Chosen>,
        out: &mut Vec<Opt>,
    ) -> R<()> {
        let at = Choosing {
            ai,
            player,
            action: a,
            k,
        };
        let Some(ch) = a.choices.get(k) else {
            self.push_offer(at, chosen, out);
            return Ok(());
        };
        let filter = self.code.choice_filter[ai as usize][k];
        let from = self.code.choice_from[ai as usize][k];
        // An error of the choice's list or `where` (or of a later choice, when it has no place
        // yet) is placed at the choice.
        let from = self.value(st, from).map_err(|e| placed(e, ch.at))?;
        match &ch.kind {
            ChoiceKind::One => self.enumerate_one(st, at, from, filter, chosen, out),
            ChoiceKind::Chips { .. } => {
                let size = self.code.choice_size[ai as usize][k];
                self.enumerate_chips(st, at, from, size, filter, chosen, out)
            }
        }
        .map_err(|e| placed(e, ch.at))
    }

    /// An offer of the values chosen so far.
    fn push_offer(&mut self, at: Choosing, chosen: &[Chosen], out: &mut Vec<Opt>) {
        let h = self.run.push_offer(at.ai, at.player, chosen, None);
        out.push(Opt::Action(h));
    }

    /// `choose x: LIST where …`: each element that passes, then the next choices.
    fn enumerate_one(
        &mut self,
        st: &mut State,
        at: Choosing,
        from: Value,
        filter: Option<TestId>,
        chosen: &mut Vec<Chosen>,
        out: &mut Vec<Opt>,
    ) -> R<()> {
        let slot = at.action.choices[at.k].slot;
        // The last choice: each value that passes is an offer (no further choices to list).
        let last = at.k + 1 == at.action.choices.len();
        // The elements, copied once into a work list (the arena may grow while they are tried).
        let mut items = self.scratch.pop().unwrap_or_default();
        items.clear();
        match from {
            Value::List(l) => {
                self.len_of(from)?;
                items.extend_from_slice(self.lists.get(l as usize).map_or(&[][..], |v| v));
            }
            v => {
                for i in 0..self.len_of(v)? {
                    items.push(self.elem_at(v, i));
                }
            }
        }
        let r = self.try_each(st, at, slot, last, &items, filter, chosen, out);
        items.clear();
        self.scratch.push(items);
        r
    }

    /// Tries each of `items` for choice `at.k` (see `enumerate_one`).
    #[allow(clippy::too_many_arguments)]
    fn try_each(
        &mut self,
        st: &mut State,
        at: Choosing,
        slot: u16,
        last: bool,
        items: &[Value],
        filter: Option<TestId>,
        chosen: &mut Vec<Chosen>,
        out: &mut Vec<Opt>,
    ) -> R<()> {
        // The chips offered so far: a chip like one of them (colour, value, face and place) is the
        // same move, offered once (as `chips from` does).
        let mut offered = self.scratch.pop().unwrap_or_default();
        offered.clear();
        let r = self.try_each_in(st, at, slot, last, items, filter, chosen, out, &mut offered);
        offered.clear();
        self.scratch.push(offered);
        r
    }

    /// [`Self::try_each`], with the chips offered so far in `offered`.
    #[allow(clippy::too_many_arguments)]
    fn try_each_in(
        &mut self,
        st: &mut State,
        at: Choosing,
        slot: u16,
        last: bool,
        items: &[Value],
        filter: Option<TestId>,
        chosen: &mut Vec<Chosen>,
        out: &mut Vec<Opt>,
        offered: &mut Vec<Value>,
    ) -> R<()> {
        for &item in items {
            self.tick()?;
            if let Value::Chip(c) = item {
                if offered.iter().any(|&o| same_move(st, o, c, at.player)) {
                    continue;
                }
            }
            self.set(slot, item)?;
            if let Some(f) = filter {
                if !self.truth(st, f)? {
                    continue;
                }
            }
            if let Value::Chip(_) = item {
                offered.push(item);
            }
            if last {
                // An offer: the earlier choices, then this value.
                let last = Some(Chosen::Value(item));
                let h = self.run.push_offer(at.ai, at.player, chosen, last);
                out.push(Opt::Action(h));
            } else {
                chosen.push(Chosen::Value(item));
                let r = self.enumerate(st, at.ai, at.player, at.action, at.k + 1, chosen, out);
                chosen.pop();
                r?;
            }
        }
        Ok(())
    }

    pub(super) fn run_offer(&mut self, st: &mut State, h: u32) -> R<()> {
        let Some(offer) = self.run.decision.offers.get(h as usize).cloned() else {
            return Ok(());
        };
        let prog = self.prog.clone();
        let Some(a) = prog.actions.get(offer.action as usize) else {
            return Ok(());
        };
        let ai = offer.action as usize;
        self.refresh_usage(st);
        self.run.actions_this_turn += 1;
        if self.run.actions_this_turn > MAX_ACTIONS_PER_TURN {
            self.current = (prog.rules.len() + ai) as u16;
            // Placed at the condition that stays true (nowhere when it has none).
            let e = self.fail(
                Fault::RunsAway,
                format!(
                "taken {} times in turn {}: a turn takes at most {MAX_ACTIONS_PER_TURN} actions \
                 (does its condition stay true after it runs?)",
                self.run.used_turn[ai], st.turn
            ),
            );
            return Err(match a.when {
                Some(_) => placed(e, a.when_at),
                None => e,
            });
        }
        self.run.used_turn[ai] += 1;
        let k = st.current as usize * prog.actions.len() + ai;
        if let Some(u) = self.run.used_round.get_mut(k) {
            *u += 1;
        }
        for l in &a.limits {
            if let Limit::Group(g, _) = l {
                if let Some(x) = self.run.groups_used.get_mut(*g as usize) {
                    *x += 1;
                }
            }
        }
        self.begin((prog.rules.len() + ai) as u16, st.turn);
        let saved = self.enter(a.body.locals.max(2));
        self.set(0, Value::Player(offer.player))?;
        let params = a.params as usize;
        for i in 0..params {
            if let Some(Chosen::Value(v)) =
                self.run.decision.offer_vals.get(offer.start as usize + i)
            {
                self.set(1 + i as u16, *v)?;
            }
        }
        for (i, ch) in a.choices.iter().enumerate() {
            let v = match self
                .run
                .decision
                .offer_vals
                .get(offer.start as usize + params + i)
            {
                Some(Chosen::Value(v)) => *v,
                Some(Chosen::Chips { start, len }) => {
                    let ids: Vec<u16> = self.run.decision.offer_chips
                        [*start as usize..(*start + *len) as usize]
                        .to_vec();
                    self.list_of(ids.into_iter().map(Value::Chip))
                }
                None => Value::Unit,
            };
            self.set(ch.slot, v)?;
        }
        let body = self.code.actions[ai];
        let r = self.run_block(st, body);
        self.leave(saved);
        r
    }

    /// An offered action's name as `seat` sees it, or as its decider does (`None`: the name the log
    /// records): the action's name, then each choice's value (`value_name_apart`).
    pub(super) fn action_name_seen(&self, st: &State, handle: u32, seat: Option<Seat>) -> String {
        let Some(o) = self.run.decision.offers.get(handle as usize) else {
            return "?".into();
        };
        let viewer = seat.unwrap_or(Seat::Player(o.player));
        let action = self.prog.actions.get(o.action as usize);
        let mut s = action.map(|a| a.name.clone()).unwrap_or_default();
        // An asked action's parameters are not choices: the name lists the choices only.
        let params = action.map_or(0, |a| a.params as u32);
        for i in params..o.len {
            if let Some(&v) = self.run.decision.offer_vals.get((o.start + i) as usize) {
                s.push(' ');
                s.push_str(&self.value_name_apart(st, o, i, v, viewer));
            }
        }
        s
    }

    /// The name of value `i` of offer `o`, told apart from the values other offers of its action
    /// choose there after the same earlier values: chips of one colour and value that differ in face
    /// get `.up`/`.down`, in place `@PLACE` (`purple1.down`, `purple1@map:3,4`), so that every option
    /// of a decision has its own name. A chip whose face the offer's player may not see is named by
    /// where it lies (`down@supply`: [`hidden_chip_name`]).
    pub(super) fn value_name_apart(
        &self,
        st: &State,
        o: &Offer,
        i: u32,
        v: Chosen,
        viewer: Seat,
    ) -> String {
        let mut name = self.value_name(st, v, viewer);
        let (face, place) = self.differ_from_others(st, o, i, v, viewer);
        match v {
            Chosen::Value(Value::Chip(c)) if seen(st, c, viewer) => {
                let ch = st.chips[c as usize];
                if face {
                    name.push_str(if ch.face_up { ".up" } else { ".down" });
                }
                if place {
                    name.push('@');
                    name.push_str(&place_name(st, &self.prog.holdings, ch.place));
                }
            }
            Chosen::Chips { start, len } if face => {
                let ids = &self.run.decision.offer_chips[start as usize..(start + len) as usize];
                let parts: Vec<String> = ids
                    .iter()
                    .map(|&c| {
                        let ch = st.chips[c as usize];
                        if !seen(st, c, viewer) {
                            return self.hidden_chip_name(st, ch);
                        }
                        let face = if ch.face_up { "up" } else { "down" };
                        format!("{}.{face}", self.chip_name(ch))
                    })
                    .collect();
                name = parts.join("+");
            }
            _ => {}
        }
        name
    }

    /// Whether another offer of `o`'s action and player, with the same values before `i`, chooses
    /// at `i` chips of the same colours and values as `v` but in another face, or another place.
    /// Only faces the offer's player sees are compared (a chip it may not see has a name of its own,
    /// and telling a seen chip apart from it would tell its face).
    fn differ_from_others(
        &self,
        st: &State,
        o: &Offer,
        i: u32,
        v: Chosen,
        viewer: Seat,
    ) -> (bool, bool) {
        let (mut face, mut place) = (false, false);
        let key = |c: u16| {
            let ch = st.chips[c as usize];
            if seen(st, c, viewer) {
                (ch.colour, ch.value)
            } else {
                (u8::MAX, u8::MAX)
            }
        };
        let vals = |x: &Offer| {
            let (a, b) = (x.start as usize, (x.start + x.len) as usize);
            self.run.decision.offer_vals.get(a..b).unwrap_or(&[])
        };
        let mine = vals(o);
        let Some(&me) = mine.get(i as usize) else {
            return (false, false);
        };
        debug_assert_eq!(me, v);
        for other in &self.run.decision.offers {
            if other.action != o.action || other.player != o.player || other.len != o.len {
                continue;
            }
            let theirs = vals(other);
            if theirs.len() != mine.len() || theirs[..i as usize] != mine[..i as usize] {
                continue;
            }
            match (me, theirs[i as usize]) {
                (Chosen::Value(Value::Chip(a)), Chosen::Value(Value::Chip(b)))
                    if a != b && key(a) == key(b) && key(a) != (u8::MAX, u8::MAX) =>
                {
                    let (x, y) = (st.chips[a as usize], st.chips[b as usize]);
                    face |= x.face_up != y.face_up;
                    place |= x.place != y.place;
                }
                (Chosen::Chips { start: s1, len: l1 }, Chosen::Chips { start: s2, len: l2 })
                    if (s1, l1) != (s2, l2) && l1 == l2 =>
                {
                    let a = &self.run.decision.offer_chips[s1 as usize..(s1 + l1) as usize];
                    let b = &self.run.decision.offer_chips[s2 as usize..(s2 + l2) as usize];
                    let mut ka: Vec<_> = a.iter().map(|&c| key(c)).collect();
                    let mut kb: Vec<_> = b.iter().map(|&c| key(c)).collect();
                    ka.sort_unstable();
                    kb.sort_unstable();
                    face |= ka == kb;
                }
                _ => {}
            }
        }
        (face, place)
    }

    /// A chip as options name it: its colour and value (`purple1`).
    fn chip_name(&self, ch: crate::state::Chip) -> String {
        let col = self
            .prog
            .colours
            .get(ch.colour as usize)
            .map(|s| s.as_str())
            .unwrap_or("?");
        format!("{col}{}", ch.value)
    }

    /// A chip whose face the decider may not see, as options name it: where it lies (`down@supply`,
    /// `down@map:3,4`, `down@hand:ann`). Chips hidden from the decider in one place are one move
    /// ([`same_move`]), so the name tells the options apart without telling a face.
    fn hidden_chip_name(&self, st: &State, ch: Chip) -> String {
        format!("down@{}", place_name(st, &self.prog.holdings, ch.place))
    }

    /// Value `v` as options name it to `viewer` (a chip it may not see by where it lies).
    pub(super) fn value_name(&self, st: &State, v: Chosen, viewer: Seat) -> String {
        match v {
            Chosen::Chips { start, len } => {
                let ids = &self.run.decision.offer_chips[start as usize..(start + len) as usize];
                let parts: Vec<String> = ids
                    .iter()
                    .map(|&c| {
                        let ch = st.chips[c as usize];
                        if !seen(st, c, viewer) {
                            return self.hidden_chip_name(st, ch);
                        }
                        self.chip_name(ch)
                    })
                    .collect();
                parts.join("+")
            }
            Chosen::Value(v) => match v {
                Value::Square(c) => {
                    let (x, y) = st.board.xy(c);
                    format!("{x},{y}")
                }
                Value::Follower(f) => st.follower_id(f),
                Value::Player(p) => st
                    .players
                    .get(p as usize)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                Value::Stack(s) => match st.tile_stacks.get(s as usize) {
                    Some(k) => {
                        let (x, y) = st.board.xy(k.cell);
                        let top = k
                            .tiles
                            .last()
                            .map(|&t| st.tiles[t as usize].id.as_str())
                            .unwrap_or("-");
                        format!("stack@{x},{y}:{top}")
                    }
                    None => "stack".into(),
                },
                Value::Chip(c) if !seen(st, c, viewer) => {
                    self.hidden_chip_name(st, st.chips[c as usize])
                }
                Value::Chip(c) => self.chip_name(st.chips[c as usize]),
                Value::Int(i) => i.to_string(),
                Value::Str(i) => self
                    .run
                    .strings
                    .get(i as usize)
                    .cloned()
                    .unwrap_or_default(),
                Value::Colour(c) => self
                    .prog
                    .colours
                    .get(c as usize)
                    .cloned()
                    .unwrap_or_default(),
                Value::Kind(k) => k.name().to_string(),
                v => format!("{v:?}"),
            },
        }
    }
}

/// Whether offering chip `c` is the same move as offering `o` (a chip already offered) to `player`:
/// two chips of one colour and value, in one face and one place, are interchangeable; so are two
/// chips in one place whose faces `player` may not see (to them, taking either is taking one
/// face-down chip from there: the first the list gives, as the supply's shuffled order).
fn same_move(st: &State, o: Value, c: u16, player: u8) -> bool {
    let Value::Chip(d) = o else {
        return false;
    };
    let (a, b) = (st.chips[c as usize], st.chips[d as usize]);
    let seat = Seat::Player(player);
    if a.place == b.place && !seen(st, c, seat) && !seen(st, d, seat) {
        return true;
    }
    (a.colour, a.value, a.face_up, a.place) == (b.colour, b.value, b.face_up, b.place)
}

/// Whether `seat` sees the face of chip `c` (decided in one place: [`Seat::sees_face`]).
#[inline]
pub(super) fn seen(st: &State, c: u16, seat: Seat) -> bool {
    let ch = st.chips[c as usize];
    seat.sees_face(ch.face_up, ch.place)
}

/// A chip's place as logs and scripts write it (`hand:ann`, `map:3,4`, `slot:3,4:0`).
fn place_name(st: &State, holdings: &[String], p: Place) -> String {
    let player = |p: u8| {
        st.players
            .get(p as usize)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    };
    match p {
        Place::Supply => "supply".into(),
        Place::Aside => "aside".into(),
        Place::Box => "box".into(),
        Place::Square(c) => {
            let (x, y) = st.board.xy(c);
            format!("map:{x},{y}")
        }
        Place::Hand(p) => format!("hand:{}", player(p)),
        Place::Slot(c, i) => {
            let (x, y) = st.board.xy(c);
            format!("slot:{x},{y}:{i}")
        }
        Place::Under(f) => format!("under:{}", st.follower_id(f)),
        Place::Holding(h) => holdings.get(h as usize).cloned().unwrap_or_default(),
        Place::PlayerHolding(h, p) => format!(
            "{}:{}",
            holdings.get(h as usize).map_or("", |s| s.as_str()),
            player(p)
        ),
    }
}

/// Where an enumeration of offers stands: which action, for whom, at which choice.
#[derive(Clone, Copy)]
pub(super) struct Choosing<'a> {
    pub(crate) ai: u32,
    pub(crate) player: u8,
    pub(crate) action: &'a Action,
    pub(crate) k: usize,
}

/// How a refusal names the phase an action is offered in.
fn phase_name(p: Option<Phase>) -> String {
    match p {
        None => "forced".to_string(),
        Some(Phase::Asked) => "a decision only when a rule asks for it (`ask`)".to_string(),
        Some(p) => format!("phase {}", format!("{p:?}").to_lowercase()),
    }
}
