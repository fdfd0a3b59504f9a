//! `tune` in the page: `carto tune`'s race (`carto::sim::tune`), played a part of a round at a
//! time (the Web Worker asks for one part at a time, so it can tell the progress and stop between
//! them). The parts of a round merge exactly into what the round played at once gives, and a round
//! ends, and values leave the race, exactly where the command line's do: the table is
//! `carto tune`'s for the same seed, budget and settings.

use crate::api::{bad, given_maps, load, strings, Failed};
use crate::sim::{check_players, seats, MAX_GAMES};
use carto::diag::Code;
use carto::sim::run::{layout_for, run, Watch};
use carto::sim::sweep::{parse_axes, points};
use carto::sim::tune::{to_json, Race, Target, TuneInfo};
use carto::variant::{InputError, Variant};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::sync::atomic::AtomicBool;

/// The games each value plays in the first round when the page does not say (`carto tune`'s
/// `--first-round` default).
const FIRST_ROUND: u64 = 200;

struct TuneSession {
    info: TuneInfo,
    variants: Vec<Variant>,
    race: Race,
    /// The budget: games in all.
    games: u64,
    first_round: u64,
    /// The round under way: its values, its first game, its games per value and those played.
    round: Option<(Vec<usize>, u64, u64, u64)>,
    over: bool,
}

thread_local! {
    static TUNE: RefCell<Option<TuneSession>> = const { RefCell::new(None) };
}

pub fn dispatch(f: &str, req: &Value) -> Value {
    TUNE.with(|t| {
        let mut t = t.borrow_mut();
        match f {
            "tune_start" => match start(req) {
                Ok(session) => {
                    let v =
                        json!({"budget": session.games, "values": session.race.candidates.len()});
                    *t = Some(session);
                    v
                }
                Err(e) => e.json(),
            },
            "tune_step" => {
                let Some(session) = t.as_mut() else {
                    return bad("no tuning run: start one").json();
                };
                let n = req.get("games").and_then(Value::as_u64).unwrap_or(8).max(1);
                match session.step(n) {
                    Ok(()) => session.progress(),
                    Err(e) => e.json(),
                }
            }
            "tune_report" => match t.as_ref() {
                Some(session) => session.report(),
                None => bad("no tuning run: start one").json(),
            },
            _ => bad(format!("no function `{f}`")).json(),
        }
    })
}

fn start(req: &Value) -> Result<TuneSession, Failed> {
    let s = |k: &str| req.get(k).and_then(Value::as_str).unwrap_or("");
    let name = s("name").to_string();
    let sets = strings(req.get("sets"));
    let params = strings(req.get("params"));
    if params.is_empty() {
        return Err(bad("name a parameter and its values: NAME=A..B"));
    }
    let games = req.get("games").and_then(Value::as_u64).unwrap_or(0);
    if games == 0 || games > MAX_GAMES {
        return Err(bad(format!("games must be 1 to {MAX_GAMES}")));
    }
    let first_round = req
        .get("first_round")
        .and_then(Value::as_u64)
        .unwrap_or(FIRST_ROUND);
    if first_round == 0 {
        return Err(bad("the first round plays at least 1 game"));
    }
    let seed = req.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let (agents, players) = seats(req, "greedy")?;
    let target = Target::parse(s("target"), &players).map_err(bad)?;
    let axes = parse_axes(&params).map_err(|e| bad(e.replace("`--sweep ", "`")))?;
    let loaded = load(&name, s("text"), &[], &given_maps(req))?;
    let mut variants = Vec::new();
    for point in points(&axes) {
        let all: Vec<String> = sets.iter().chain(&point).cloned().collect();
        variants.push(loaded.with_sets(&all, &|i, e| {
            InputError::new(Code::BadSet, format!("error: `{}`: {e}", all[i]))
        })?);
    }
    check_players(&variants[0], &players)?;
    let programs: Vec<&carto::lang::ir::Program> = variants.iter().map(|v| &*v.program).collect();
    carto::agent::check_barred(&programs, &agents).map_err(bad)?;
    let info = TuneInfo {
        variant: name,
        params,
        target,
        sets,
        players,
        agents,
        seed,
    };
    let layout = layout_for(&info.spec(&variants.iter().collect::<Vec<_>>(), 0, 1, 1)).0;
    let race = Race::new(info.target.clone(), layout, points(&axes));
    Ok(TuneSession {
        info,
        variants,
        race,
        games,
        first_round,
        round: None,
        over: false,
    })
}

impl TuneSession {
    /// Plays up to `n` more games of the round under way under every value in it (starting the
    /// next round when none is under way; the race is over when there is none).
    fn step(&mut self, n: u64) -> Result<(), Failed> {
        if self.over {
            return Ok(());
        }
        if self.round.is_none() {
            match self.race.next_round(self.games, self.first_round) {
                Some((alive, first, per)) => self.round = Some((alive, first, per, 0)),
                None => {
                    self.over = true;
                    return Ok(());
                }
            }
        }
        let Some((alive, first, per, done)) = self.round.as_mut() else {
            return Ok(());
        };
        let m = n.min(*per - *done);
        let settings: Vec<&Variant> = alive.iter().map(|&c| &self.variants[c]).collect();
        let stop = AtomicBool::new(false);
        let r = run(
            &self.info.spec(&settings, *first + *done, m, 1),
            Watch {
                stop: &stop,
                tick: &mut |_| {},
                rows: None,
            },
        )
        .map_err(|e| Failed {
            code: e.code,
            text: e.with_game(),
        })?;
        self.race.add_games(alive, &r);
        *done += m;
        if *done == *per {
            self.round = None;
            self.race.end_round();
        }
        Ok(())
    }

    /// Games played so far (every value's count) of the budget, and whether the race is over.
    fn progress(&self) -> Value {
        let used: u64 = self.race.candidates.iter().map(|c| c.games()).sum();
        json!({
            "used": used,
            "budget": self.games,
            "rounds": self.race.rounds,
            "alive": self.race.alive().len(),
            "over": self.over,
        })
    }

    /// The table `carto tune` prints, the race as JSON (without the histograms) and the command.
    fn report(&self) -> Value {
        let mut result = to_json(&self.info, &self.race);
        if let Some(cands) = result["candidates"].as_array_mut() {
            for c in cands {
                if let Some(o) = c.as_object_mut() {
                    o.remove("hists");
                }
            }
        }
        json!({
            "table": carto::sim::tune_table::table(&self.info, &self.race),
            "result": result,
            "command": self.command(),
            "over": self.over,
        })
    }

    /// The `carto tune` command that gives the same table.
    fn command(&self) -> String {
        let i = &self.info;
        let w = carto::sim::shell_word;
        let mut c = format!("carto tune {}", w(&i.variant));
        for p in &i.params {
            c.push_str(&format!(" {}", w(p)));
        }
        c.push_str(&format!(
            " --target {} --games {} --seed {} --agents {} --players {}",
            w(&target_text(&i.target, &i.players)),
            self.games,
            i.seed,
            i.agents.join(","),
            i.players.join(",")
        ));
        if self.first_round != FIRST_ROUND {
            c.push_str(&format!(" --first-round {}", self.first_round));
        }
        for s in &i.sets {
            c.push_str(&format!(" --set {}", w(s)));
        }
        c
    }
}

/// A target as `--target` reads it.
fn target_text(t: &Target, players: &[String]) -> String {
    match t {
        Target::Balance => "balance".into(),
        Target::Win { seat, share } => format!(
            "win:{}={share}",
            players
                .get(*seat)
                .cloned()
                .unwrap_or_else(|| (seat + 1).to_string())
        ),
        Target::Turns { mean } => format!("turns={mean}"),
        Target::Gap { mean } => format!("gap={mean}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> &'static str {
        carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "base")
            .unwrap()
            .1
    }

    /// A race played in parts of any size gives the table of the race played a round at a time.
    #[test]
    fn parts_give_the_race_of_whole_rounds() {
        let req = json!({"name": "base", "text": base(), "params": ["road_tile=0..2"],
            "target": "balance", "games": 60, "first_round": 8, "seed": 3, "agents": ["random"]});
        let table = |part: u64| {
            let mut s = start(&req).unwrap();
            while !s.over {
                s.step(part).unwrap();
            }
            s.report()["table"].as_str().unwrap().to_string()
        };
        let whole = table(1000);
        assert_eq!(table(3), whole);
        assert!(
            whole.starts_with("tune: base road_tile=0..2 (3 values)"),
            "{whole}"
        );
        let s = start(&req).unwrap();
        assert_eq!(
            s.command(),
            "carto tune base road_tile=0..2 --target balance --games 60 --seed 3 --agents random,random --players ann,bob --first-round 8"
        );
    }

    /// A parameter that chooses the tile sets is tuned in the page as on the command line: the
    /// rules are the editor's text, never a file.
    #[test]
    fn a_parameter_choosing_tile_sets_is_tuned() {
        let text = "import \"base\"\nparam second: string = \"inns-cathedrals\"\nvariant \"ts\" {\n  tiles = [\"base\", second]\n}\n";
        let req = json!({"name": "my.rules", "text": text,
            "params": ["second=inns-cathedrals,traders-builders"],
            "target": "balance", "games": 4, "first_round": 2, "seed": 3, "agents": ["random"]});
        let mut s = start(&req).unwrap_or_else(|e| panic!("{}", e.json()));
        while !s.over {
            s.step(1000).unwrap();
        }
        let table = s.report()["table"].as_str().unwrap().to_string();
        assert!(table.contains("traders-builders"), "{table}");
    }

    /// Every target's command text reads back as the same target (`carto tune --target`).
    #[test]
    fn targets_read_back() {
        let players = vec!["ann".to_string(), "bob".to_string()];
        for t in [
            "balance",
            "win:bob=0.45",
            "win:2=0.5",
            "turns=70",
            "gap=5.5",
        ] {
            let target = Target::parse(t, &players).unwrap();
            let text = target_text(&target, &players);
            assert_eq!(Target::parse(&text, &players), Ok(target), "{t} -> {text}");
        }
        assert_eq!(
            target_text(&Target::parse("win:2=0.5", &players).unwrap(), &players),
            "win:bob=0.5"
        );
    }

    #[test]
    fn bad_requests_are_refused() {
        let ok = json!({"name": "base", "text": base(), "params": ["road_tile=0..2"],
            "target": "balance", "games": 60});
        assert!(start(&ok).is_ok());
        for (k, v) in [
            ("params", json!([])),
            ("target", json!("fair")),
            ("games", json!(0)),
            ("params", json!(["nothing=0..2"])),
        ] {
            let mut r = ok.clone();
            r[k] = v;
            assert!(start(&r).is_err(), "{k}");
        }
    }
}
