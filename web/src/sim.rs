//! `sim` in the page: the games are played in chunks (the Web Worker asks for one chunk at a time,
//! so it can tell the progress and stop between them), and the chunks' statistics are merged as
//! `carto sim merge` merges slices: every figure is an exact integer histogram, so the table is
//! `carto sim`'s for the same seed and settings.

use crate::api::{bad, given_maps, load, strings, Failed};
use carto::diag::Code;
use carto::sim::report;
use carto::sim::run::{run, Results, Spec, Watch};
use carto::sim::RunInfo;
use carto::variant::Variant;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::sync::atomic::AtomicBool;

/// Player names when none are given: as many as the agents (at least two), as `carto sim` names them.
const DEFAULT_PLAYERS: [&str; 6] = ["ann", "bob", "cyd", "dee", "eve", "fay"];
/// The name of an original's rules carried by a link that are not the bundled file of their name.
pub const ORIGINAL_FILE: &str = "original.rules";
/// At most this many games in one run (as the command line).
pub const MAX_GAMES: u64 = 100_000_000;

struct SimSession {
    info: RunInfo,
    settings: Vec<Variant>,
    next: u64,
    end: u64,
    results: Option<Results>,
}

thread_local! {
    static SIM: RefCell<Option<SimSession>> = const { RefCell::new(None) };
}

pub fn dispatch(f: &str, req: &Value) -> Value {
    SIM.with(|s| {
        let mut s = s.borrow_mut();
        match f {
            "sim_start" => match start(req) {
                Ok(session) => {
                    let games = session.end;
                    *s = Some(session);
                    json!({"games": games, "done": 0})
                }
                Err(e) => e.json(),
            },
            "sim_step" => {
                let Some(session) = s.as_mut() else {
                    return bad("no run: start one").json();
                };
                let n = req.get("games").and_then(Value::as_u64).unwrap_or(8).max(1);
                match session.step(n) {
                    Ok(()) => json!({"done": session.next, "games": session.end}),
                    Err(e) => e.json(),
                }
            }
            "sim_report" => match s.as_ref().and_then(|s| s.results.as_ref().map(|r| (s, r))) {
                Some((session, r)) => answer(&session.info, r, session.end),
                None => bad("no games played yet").json(),
            },
            _ => bad(format!("no function `{f}`")).json(),
        }
    })
}

/// The results as the page shows them: `table` as `carto sim` prints it (with `--report`: the
/// report's text, and `report` its JSON as `carto sim --report --format json` writes it under
/// `report`, whose figures carry the command line's sentences), the games played and the command
/// that gives the same numbers.
fn answer(info: &RunInfo, r: &Results, games: u64) -> Value {
    let table = if info.report {
        format!(
            "{}\n{}",
            report::header(info, r),
            carto::sim::findings::text(info, r)
        )
    } else {
        report::table(info, r)
    };
    // The report's JSON as a value, never through text: serde_json reads floats back to the
    // nearest value only with its `float_roundtrip` feature, so text read back could differ from
    // `carto sim --format json`'s in the last digit.
    let mut v = json!({
        "table": table,
        "games": r.games(),
        "command": command(info, games),
    });
    if info.report {
        v["report"] = carto::sim::findings::json(info, r);
    }
    v
}

/// The `carto sim` command that gives the same numbers.
fn command(info: &RunInfo, games: u64) -> String {
    let mut c = format!(
        "carto sim {} --games {games} --seed {} --agents {} --players {}",
        carto::sim::shell_word(&info.variant),
        info.seed,
        info.agents.join(","),
        info.players.join(",")
    );
    for s in &info.sets {
        c.push_str(&format!(" --set {}", carto::sim::shell_word(s)));
    }
    if let Some(r) = &info.vs_rules {
        c.push_str(&format!(" --vs-rules {}", carto::sim::shell_word(r)));
    }
    for s in &info.vs {
        c.push_str(&format!(" --vs {}", carto::sim::shell_word(s)));
    }
    if info.report {
        c.push_str(" --report");
    }
    c
}

fn start(req: &Value) -> Result<SimSession, Failed> {
    let s = |k: &str| req.get(k).and_then(Value::as_str).unwrap_or("");
    let name = s("name").to_string();
    let text = s("text");
    let sets = strings(req.get("sets"));
    let vs = strings(req.get("vs"));
    // The second setting's rules (`--vs-rules`): a bundled variant, by name.
    let vs_rules = match s("vs_rules") {
        "" => None,
        // The original's text as a link carried it, when it is not (or no longer) the bundled
        // file of that name: measured as the file `original.rules` (`--vs-rules original.rules`).
        r if !s("vs_text").is_empty()
            && !carto::bundled::RULES
                .iter()
                .any(|(n, t)| *n == r && *t == s("vs_text")) =>
        {
            Some((ORIGINAL_FILE.to_string(), s("vs_text")))
        }
        r => match carto::bundled::RULES.iter().find(|(n, _)| *n == r) {
            Some((n, t)) => Some((n.to_string(), *t)),
            None => {
                return Err(Failed {
                    code: Code::Unreadable,
                    text: format!("no bundled rules `{r}` to compare with"),
                })
            }
        },
    };
    let games = req.get("games").and_then(Value::as_u64).unwrap_or(0);
    if games == 0 || games > MAX_GAMES {
        return Err(bad(format!("games must be 1 to {MAX_GAMES}")));
    }
    let seed = req.get("seed").and_then(Value::as_u64).unwrap_or(1);
    let report = req.get("report").and_then(Value::as_bool).unwrap_or(false);
    let default = if report { "greedy" } else { "random" };
    let (agents, players) = seats(req, default)?;
    let maps = given_maps(req);
    let a = load(&name, text, &sets, &maps)?;
    check_players(&a, &players)?;
    let mut settings = vec![a];
    if !vs.is_empty() || vs_rules.is_some() {
        let all: Vec<String> = sets.iter().chain(&vs).cloned().collect();
        let (b_name, b_text) = vs_rules
            .as_ref()
            .map_or((name.as_str(), text), |(n, t)| (n, t));
        settings.push(load(b_name, b_text, &all, &maps)?);
    }
    let programs: Vec<&carto::lang::ir::Program> = settings.iter().map(|v| &*v.program).collect();
    carto::agent::check_barred(&programs, &agents).map_err(bad)?;
    Ok(SimSession {
        info: RunInfo {
            variant: name,
            sets,
            vs,
            vs_rules: vs_rules.map(|(n, _)| n),
            sweep: Vec::new(),
            players,
            agents,
            seed,
            report,
        },
        settings,
        next: 0,
        end: games,
        results: None,
    })
}

/// The agent of each seat and the players' names, as `carto sim` reads `--agents` and `--players`
/// (`default`: the agent when none is given).
pub fn seats(req: &Value, default: &str) -> Result<(Vec<String>, Vec<String>), Failed> {
    let mut agents = strings(req.get("agents"));
    if agents.is_empty() {
        agents.push(default.into());
    }
    let mut players = strings(req.get("players"));
    if players.is_empty() {
        let n = agents.len().max(2);
        if n > DEFAULT_PLAYERS.len() {
            return Err(bad(format!(
                "at most {} players, not {n}",
                DEFAULT_PLAYERS.len()
            )));
        }
        players = DEFAULT_PLAYERS[..n].iter().map(|p| p.to_string()).collect();
    }
    if agents.len() == 1 {
        agents = vec![agents[0].clone(); players.len()];
    }
    if agents.len() != players.len() {
        return Err(bad(format!(
            "{} agents for {} players: give one agent for every seat, or one for all",
            agents.len(),
            players.len()
        )));
    }
    for a in &agents {
        carto::agent::parse_agent(a).map_err(bad)?;
    }
    Ok((agents, players))
}

/// Refuses a number of players the variant is not for.
pub fn check_players(v: &Variant, players: &[String]) -> Result<(), Failed> {
    let (lo, hi) = v.players;
    if players.len() < lo || players.len() > hi {
        return Err(bad(format!(
            "{} is for {lo} to {hi} players, not {}",
            v.name,
            players.len()
        )));
    }
    Ok(())
}

impl SimSession {
    /// Plays the next `n` games (fewer at the end) and adds their statistics.
    fn step(&mut self, n: u64) -> Result<(), Failed> {
        if self.next >= self.end {
            return Ok(());
        }
        let games = n.min(self.end - self.next);
        let spec = Spec {
            settings: self.settings.iter().collect(),
            players: self.info.players.clone(),
            agents: self.info.agents.clone(),
            seed: self.info.seed,
            first: self.next,
            games,
            threads: 1,
            report: self.info.report,
        };
        let stop = AtomicBool::new(false);
        let r = run(
            &spec,
            Watch {
                stop: &stop,
                tick: &mut |_| {},
                rows: None,
            },
        )
        .map_err(|e| Failed {
            code: e.code,
            text: format!(
                "{}\n  replay it alone: {}",
                e.with_game().trim_end(),
                self.info.replay_command(e.setting, e.game)
            ),
        })?;
        self.next += games;
        self.results = Some(match self.results.take() {
            None => r,
            Some(acc) => {
                let slices = vec![
                    ("so far".to_string(), self.info.clone(), acc),
                    ("chunk".to_string(), self.info.clone(), r),
                ];
                carto::sim::merge::merge(slices)
                    .map_err(|text| Failed {
                        code: Code::BadReport,
                        text,
                    })?
                    .1
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunks merged give the table of one run of the same games (what `carto sim` prints).
    #[test]
    fn chunks_give_the_table_of_one_run() {
        let text = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "base")
            .unwrap()
            .1;
        let req =
            json!({"name": "base", "text": text, "games": 20, "seed": 3, "agents": ["random"]});
        let mut s = start(&req).unwrap();
        while s.next < s.end {
            s.step(3).unwrap();
        }
        let chunked = report::table(&s.info, s.results.as_ref().unwrap());
        let mut whole = start(&req).unwrap();
        whole.step(20).unwrap();
        let one = report::table(&whole.info, whole.results.as_ref().unwrap());
        assert_eq!(chunked, one);
        assert!(
            one.starts_with("base: 20 games (games 0 to 19, seeds 3 to 22)"),
            "{one}"
        );
    }

    /// The second setting's rules: a bundled variant, as `carto sim --vs-rules` names it.
    #[test]
    fn the_second_setting_may_be_other_rules() {
        let text = "import \"base\"\nvariant \"mine\" {\n  title = \"Mine\"\n}\n";
        let req = json!({"name": "my.rules", "text": text, "games": 4, "seed": 3,
            "agents": ["random"], "vs_rules": "base"});
        let mut s = start(&req).unwrap();
        s.step(4).unwrap();
        assert_eq!(s.settings[1].name, "base");
        let t = report::table(&s.info, s.results.as_ref().unwrap());
        assert!(t.contains("b: rules base"), "{t}");
        assert!(command(&s.info, 4).ends_with("--vs-rules base"));
        let bad =
            start(&json!({"name": "my.rules", "text": text, "games": 4, "vs_rules": "nowhere"}));
        assert!(bad.is_err());
    }

    /// An agent barred from an action the rules do not have is refused, in the words `carto sim`
    /// uses: a misspelt name would bar nothing and the run would measure plain greedy.
    #[test]
    fn an_agent_barred_from_no_action_is_refused() {
        let france = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "france")
            .unwrap()
            .1;
        let req = |agent: &str| {
            json!({"name": "france", "text": france, "games": 2, "seed": 3,
                "agents": [agent, "greedy"]})
        };
        let e = start(&req("greedy-without:sel")).err().unwrap().json();
        let text = e["error"].as_str().unwrap_or_default().to_string();
        assert!(
            text.contains("`greedy-without:sel`: the rules have no action `sel`"),
            "{e}"
        );
        assert!(start(&req("greedy-without:sell_town")).is_ok());
    }
}
