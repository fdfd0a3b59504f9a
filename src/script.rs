//! Scripted games: a variant, players, seed, optionally the exact tile order, start squares and chip
//! layout, then each decision by its option name, with assertions along the way. Format in README.md.

use crate::diag::{Code, Diagnostic, Source};
use crate::game::{play_random, Config, Game};
use crate::lang::interp::Interp;
use crate::rng::Rng;
use crate::state::{FollowerAt, Place};
use crate::variant::{load_variant_with, InputError, Variant};
use std::ops::Range;
use std::sync::Arc;

/// One line of a script, parsed.
#[derive(Clone, Debug)]
enum Step {
    Choose(String),
    ExpectScore(String, i64),
    /// `expect final score NAME N`: the score if the game ended now (final scoring on a copy).
    ExpectFinalScore(String, i64),
    ExpectChip(u16, String),
    ExpectOptions(usize),
    ExpectFollower(String, String),
    /// `expect state NAME V` or `expect state PLAYER.NAME V`: a value the rules keep.
    ExpectState(String, String),
    Rest,
}

struct Header {
    variant: Option<String>,
    players: Vec<String>,
    players_span: Range<usize>,
    seed: u64,
    sets: Vec<String>,
    set_spans: Vec<Range<usize>>,
    starts: Vec<String>,
    starts_span: Range<usize>,
    tiles: Option<(Vec<String>, Range<usize>)>,
    /// `start_tile TILE [rDEG]`: the start tile, its rotation (quarter turns) and the line.
    start: Option<(String, u8, Range<usize>)>,
    /// `stack free-form`: the `tiles` stack need not match the tile sets (no warning).
    free_stack: bool,
    chips: Vec<(u16, String, bool, Range<usize>)>,
}

/// The result of a script: the game as played, and its variant.
pub struct ScriptRun {
    pub game: Game<Interp>,
    pub variant: Variant,
    /// Warnings about the script (a `tiles` stack that does not match the tile sets); empty when
    /// none.
    pub warnings: Vec<(Source, Diagnostic)>,
}

impl ScriptRun {
    /// The warnings rendered (`file:line:col`, the line, a caret); empty when none.
    pub fn warnings_text(&self) -> String {
        self.warnings
            .iter()
            .map(|(src, d)| src.render(std::slice::from_ref(d)))
            .collect()
    }
}

fn line_spans(text: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        // Strip a comment.
        let code = body.split('#').next().unwrap_or("");
        let lead = code.len() - code.trim_start().len();
        let trimmed = code.trim();
        if !trimmed.is_empty() {
            out.push((start + lead..start + lead + trimmed.len(), trimmed));
        }
        start += line.len();
    }
    out
}

fn fail(
    src: &Source,
    code: Code,
    span: Range<usize>,
    msg: impl Into<String>,
    label: &str,
) -> InputError {
    InputError::in_file(
        src,
        vec![Diagnostic::error(code, span, msg).with_label(label)],
    )
}

/// Runs a script. Problems come back as rendered diagnostics naming the script's line.
pub fn run_script(src: &Source) -> Result<ScriptRun, InputError> {
    run_script_keeping(src).map_err(|f| f.error)
}

/// A script that failed: the error, and the game as it stood at the failing line when the script got
/// that far (its transcript shows what led there).
pub struct ScriptFailure {
    pub error: InputError,
    pub game: Option<Box<Game<Interp>>>,
}

/// Runs a script; on a failure during play, keeps the game up to the failing line.
pub fn run_script_keeping(src: &Source) -> Result<ScriptRun, ScriptFailure> {
    let setup = prepare(src).map_err(|error| ScriptFailure { error, game: None })?;
    let Setup {
        mut game,
        variant,
        steps,
        seed,
        warnings,
    } = setup;
    match play_steps(src, &mut game, &variant, steps, seed) {
        Ok(()) => Ok(ScriptRun {
            game,
            variant,
            warnings,
        }),
        Err(error) => Err(ScriptFailure {
            error,
            game: Some(Box::new(game)),
        }),
    }
}

/// A script's steps after its header, each with its line's span.
type Steps = Vec<(Step, Range<usize>)>;

/// A script read and its game set up, before the first step.
struct Setup {
    game: Game<Interp>,
    variant: Variant,
    steps: Vec<(Step, Range<usize>)>,
    seed: u64,
    warnings: Vec<(Source, Diagnostic)>,
}

/// Reads the script's header, loads its variant and sets up its game.
fn prepare(src: &Source) -> Result<Setup, InputError> {
    let (h, steps) = read_lines(src)?;
    let variant = load_script_variant(src, &h)?;
    check_script_players(src, &h, &variant)?;
    let cfg = configure(src, &h, &variant)?;
    let warnings = stack_warnings(src, &h, &cfg);
    let mut game = variant
        .new_game(Arc::new(cfg), &h.players, h.seed, true)
        .map_err(|e| {
            let mut d = Diagnostic::error(e.code(), 0..0, e.to_string())
                .with_label("while setting up the game");
            if let Some(note) = variant.failure_note(&e) {
                d = d.with_note(note);
            }
            InputError::in_file(src, vec![d])
        })?;
    lay_chips(src, &h, &mut game)?;
    Ok(Setup {
        game,
        variant,
        steps,
        seed: h.seed,
        warnings,
    })
}

/// A `tiles` stack with more copies of a tile than the tile sets have (the start tile's copy on the
/// board counted), as warnings; none with `stack free-form`.
fn stack_warnings(src: &Source, h: &Header, cfg: &Config) -> Vec<(Source, Diagnostic)> {
    let (Some((_, span)), Some(order), false) = (&h.tiles, &cfg.fixed_stack, h.free_stack) else {
        return Vec::new();
    };
    let mut used = vec![0u32; cfg.counts.len()];
    for &t in order {
        if let Some(n) = used.get_mut(t as usize) {
            *n += 1;
        }
    }
    // The start tile on the board is one of its copies (on a map, the first start square's).
    if let Some(n) = used.get_mut(cfg.start_tile as usize) {
        *n += 1;
    }
    used.iter()
        .zip(&cfg.counts)
        .enumerate()
        .filter(|(_, (&n, &have))| n > have)
        .map(|(t, (&n, &have))| {
            let id = &cfg.tiles[t].id;
            let start = if t == cfg.start_tile as usize {
                ", the start tile counted"
            } else {
                ""
            };
            let d = Diagnostic::warning(
                Code::StackMismatch,
                span.clone(),
                format!("the stack has {n} of tile {id}{start}; the tile sets have {have}"),
            )
            .with_label("does not match the tile sets")
            .with_note("write `stack free-form` in the header if the stack need not match them");
            (src.clone(), d)
        })
        .collect()
}

/// The statements that belong to a script's header, before its first move.
const HEADER_WORDS: [&str; 9] = [
    "variant",
    "players",
    "seed",
    "set",
    "starts",
    "start_tile",
    "tiles",
    "stack",
    "chip",
];

/// Reads every line: the header's statements into a [`Header`], the rest into steps. All the
/// problems of the lines come back at once.
fn read_lines(src: &Source) -> Result<(Header, Steps), InputError> {
    let mut h = Header {
        variant: None,
        players: vec!["ann".into(), "bob".into()],
        players_span: 0..0,
        seed: 1,
        sets: Vec::new(),
        set_spans: Vec::new(),
        starts: Vec::new(),
        starts_span: 0..0,
        tiles: None,
        start: None,
        free_stack: false,
        chips: Vec::new(),
    };
    let mut steps: Vec<(Step, Range<usize>)> = Vec::new();
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut first_move: Option<(&str, Range<usize>)> = None;
    for (span, line) in line_spans(&src.text) {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        if HEADER_WORDS.contains(&word) {
            if steps.is_empty() {
                if let Err(d) = header_line(&mut h, word, rest, span) {
                    errors.push(d);
                }
            } else {
                misplaced_header(&mut errors, word, span, first_move.clone());
            }
            continue;
        }
        first_move.get_or_insert((line, span.clone()));
        match step_line(word, rest, line) {
            Ok(step) => steps.push((step, span)),
            Err((msg, note)) => errors.push(
                Diagnostic::error(Code::ScriptLine, span, msg)
                    .with_label("here")
                    .with_note(note),
            ),
        }
    }
    if errors.is_empty() {
        Ok((h, steps))
    } else {
        Err(InputError::in_file(src, errors))
    }
}

/// A header statement after the first move. When the first move looks like a misspelt header
/// statement (`player ann, bob`), that line is the one to fix, and it is said first (once).
fn misplaced_header(
    errors: &mut Vec<Diagnostic>,
    word: &str,
    span: Range<usize>,
    first_move: Option<(&str, Range<usize>)>,
) {
    let (first, first_span) = first_move.unwrap_or(("", 0..0));
    let first_word = first.split_whitespace().next().unwrap_or("");
    let is_move = ["place", "follower", "pass", "expect", "rest"].contains(&first_word);
    let meant = crate::diag::did_you_mean(first_word, HEADER_WORDS).filter(|_| !is_move);
    if let Some(meant) = meant {
        if !errors.iter().any(|d| d.span == first_span) {
            errors.push(
                Diagnostic::error(
                    Code::ScriptLine,
                    first_span,
                    format!("`{first_word}` is not a header statement"),
                )
                .with_label("read as the first move, which ends the header")
                .with_note(format!("did you mean `{meant}`?")),
            );
        }
    }
    errors.push(
        Diagnostic::error(
            Code::ScriptLine,
            span,
            format!("`{word}` after the first move"),
        )
        .with_label("a header statement")
        .with_note(format!(
            "`{word}` belongs to the script's header: move it above the first move (`{first}`)"
        )),
    );
}

/// The names of a `players` or `tiles` line (separated by commas or blanks); an empty name between
/// two commas is refused.
fn names(rest: &str, what: &str) -> Result<Vec<String>, String> {
    if rest.split(',').any(|p| p.trim().is_empty()) {
        return Err(format!(
            "an empty {what} between commas, or no {what} at all: write them as `a, b`"
        ));
    }
    Ok(rest
        .split([',', ' '])
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(String::from)
        .collect())
}

/// One header statement, read into `h`.
fn header_line(
    h: &mut Header,
    word: &str,
    rest: &str,
    span: Range<usize>,
) -> Result<(), Diagnostic> {
    let here =
        |msg: String| Diagnostic::error(Code::ScriptLine, span.clone(), msg).with_label("here");
    let no_variant =
        |msg: &str| Diagnostic::error(Code::ScriptVariant, span.clone(), msg).with_label("here");
    match word {
        "variant" if h.variant.is_some() => {
            return Err(no_variant("`variant` given twice")
                .with_note("a script plays one variant: keep one `variant` line"));
        }
        "variant" if rest.is_empty() => {
            return Err(no_variant("`variant` names no variant")
                .with_note("write `variant NAME` (a bundled variant) or `variant PATH.rules`"));
        }
        "variant" => h.variant = Some(rest.to_string()),
        "players" => {
            h.players = names(rest, "player name").map_err(&here)?;
            h.players_span = span;
        }
        "seed" => h.seed = seed(rest).map_err(&here)?,
        "set" => {
            h.sets.push(rest.replace(' ', ""));
            h.set_spans.push(span);
        }
        "starts" => {
            // Start square names may hold blanks (`Mount Snow`): only commas separate them.
            if rest.split(',').any(|p| p.trim().is_empty()) {
                return Err(here(
                    "an empty start square name between commas, or none at all".into(),
                ));
            }
            h.starts = rest.split(',').map(|p| p.trim().to_string()).collect();
            h.starts_span = span;
        }
        "tiles" => h.tiles = Some((names(rest, "tile id").map_err(&here)?, span)),
        "stack" if rest == "free-form" => h.free_stack = true,
        "stack" => {
            return Err(here(format!(
                "`stack {rest}`: the only stack statement is `stack free-form`"
            ))
            .with_note("`stack free-form` says the `tiles` stack need not match the tile sets"))
        }
        "start_tile" => {
            // `start_tile TILE [rDEG]`: the start tile and its rotation, on the (first) start square.
            let parts: Vec<&str> = rest.split_whitespace().collect();
            let rot = match parts
                .get(1)
                .map(|r| r.strip_prefix('r').map(str::parse::<u32>))
            {
                None => 0,
                Some(Some(Ok(d @ (0 | 90 | 180 | 270)))) => (d / 90) as u8,
                Some(_) => {
                    return Err(here(format!(
                        "the start tile's rotation is r0, r90, r180 or r270, not `{}`",
                        parts[1]
                    )))
                }
            };
            match parts[..] {
                [id] | [id, _] => h.start = Some((id.to_string(), rot, span)),
                _ => {
                    return Err(here("write the start tile as `start_tile TILE [rDEG]`".into())
                        .with_note("e.g. `start_tile D r90`; the square is the start square (`starts NAME` on a map, 0,0 on the endless table)"))
                }
            }
        }
        _ => h.chips.push(chip_line(rest, span)?),
    }
    Ok(())
}

/// A seed: a whole number from 0 to the largest 64-bit one.
fn seed(rest: &str) -> Result<u64, String> {
    rest.parse().map_err(|_| {
        let digits = rest.strip_prefix('-').unwrap_or(rest);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            if rest.starts_with('-') {
                format!("the seed is 0 or more, not `{rest}`")
            } else {
                format!("the seed is at most {}, not `{rest}`", u64::MAX)
            }
        } else {
            format!("the seed must be a whole number, not `{rest}`")
        }
    })
}

/// `chip ID at PLACE [face up|down]`.
fn chip_line(
    rest: &str,
    span: Range<usize>,
) -> Result<(u16, String, bool, Range<usize>), Diagnostic> {
    let parts: Vec<&str> = rest.split_whitespace().collect();
    let id = parts.first().and_then(|p| p.parse::<u16>().ok());
    match (id, parts.get(1), parts.get(2)) {
        (Some(id), Some(&"at"), Some(place)) => match &parts[3..] {
            [] | ["face", "down"] => Ok((id, place.to_string(), false, span)),
            ["face", "up"] => Ok((id, place.to_string(), true, span)),
            _ => Err(Diagnostic::error(
                Code::ScriptLine,
                span,
                "a chip lies `face up` or `face down`",
            )
            .with_label("here")
            .with_note("write a chip layout as `chip ID at PLACE [face up|down]`")),
        },
        _ => Err(Diagnostic::error(
            Code::ScriptLine,
            span,
            "write a chip layout as `chip ID at PLACE [face up]`",
        )
        .with_label("here")),
    }
}

/// One step after the header: an assertion, `rest random`, or an option's name. `Err` has the
/// message and a note.
fn step_line(word: &str, rest: &str, line: &str) -> Result<Step, (String, String)> {
    match word {
        "expect" => expect_step(rest).ok_or_else(|| {
            (
                "unknown assertion".into(),
                "expect score NAME N | expect final score NAME N | expect chip ID at PLACE | expect options N | expect follower ID at PLACE | expect state [PLAYER.]NAME VALUE".into(),
            )
        }),
        "rest" if rest == "random" => Ok(Step::Rest),
        "rest" => Err((
            format!("`rest {rest}`: the rest of the game is played with random choices"),
            "write `rest random`".into(),
        )),
        _ => Ok(Step::Choose(line.to_string())),
    }
}

/// `expect …`: an assertion, if it is one of the four.
fn expect_step(rest: &str) -> Option<Step> {
    let parts: Vec<&str> = rest.split_whitespace().collect();
    match parts.as_slice() {
        ["score", who, n] => n
            .parse()
            .ok()
            .map(|n| Step::ExpectScore(who.to_string(), n)),
        ["final", "score", who, n] => n
            .parse()
            .ok()
            .map(|n| Step::ExpectFinalScore(who.to_string(), n)),
        ["chip", id, "at", place] => id
            .parse()
            .ok()
            .map(|id| Step::ExpectChip(id, place.to_string())),
        ["options", n] => n.parse().ok().map(Step::ExpectOptions),
        ["follower", id, "at", place] => {
            Some(Step::ExpectFollower(id.to_string(), place.to_string()))
        }
        ["state", name, v] => Some(Step::ExpectState(name.to_string(), v.to_string())),
        _ => None,
    }
}

/// The script's variant, loaded (a path relative to the script); a problem with the name or the
/// file is reported at the `variant` line, a problem with a `set` at that line.
fn load_script_variant(src: &Source, h: &Header) -> Result<Variant, InputError> {
    let Some((variant_name, span)) = h.variant.clone().zip(variant_span(src)) else {
        if src.text.trim_start().starts_with('{') {
            return Err(fail(
                src,
                Code::ScriptVariant,
                0..0,
                "this is a game log (JSON Lines), not a script: replay it with `carto replay`",
                "a log line",
            ));
        }
        return Err(fail(
            src,
            Code::ScriptVariant,
            0..0,
            "the script names no variant",
            "add a line `variant NAME` first",
        ));
    };
    let vpath = if variant_name.contains('/') || variant_name.ends_with(".rules") {
        // A rules file beside the script (never a file of another kind, never an absolute path).
        match crate::paths::beside(&src.name, &variant_name, ".rules") {
            Ok(p) => p.display().to_string(),
            Err(e) => {
                let d = Diagnostic::error(Code::ScriptVariant, span, e).with_label("this variant");
                return Err(InputError::in_file(src, vec![d]));
            }
        }
    } else {
        variant_name.clone()
    };
    if let Err(e) = crate::variant::rules_source(&vpath) {
        let text = e.text.trim_end().trim_start_matches("error: ");
        let (msg, notes) = text.split_once('\n').unwrap_or((text, ""));
        let mut d = Diagnostic::error(Code::ScriptVariant, span, msg.to_string())
            .with_label("this variant");
        for n in notes.lines() {
            d = d.with_note(n.trim().to_string());
        }
        return Err(InputError::in_file(src, vec![d]));
    }
    load_variant_with(&vpath, &h.sets, &|i, e| {
        let (msg, notes) = e.split_once('\n').unwrap_or((&e, ""));
        let mut d = Diagnostic::error(
            Code::BadSet,
            h.set_spans[i].clone(),
            format!("`set {}`: {msg}", h.sets[i]),
        )
        .with_label("this parameter");
        for n in notes.lines() {
            d = d.with_note(n.trim().to_string());
        }
        InputError::in_file(src, vec![d])
    })
}

/// The span of the script's `variant` line.
fn variant_span(src: &Source) -> Option<Range<usize>> {
    line_spans(&src.text)
        .into_iter()
        .find(|(_, l)| l.split_whitespace().next() == Some("variant"))
        .map(|(span, _)| span)
}

/// The players: as many as the variant allows, each name once.
fn check_script_players(src: &Source, h: &Header, variant: &Variant) -> Result<(), InputError> {
    let (lo, hi) = variant.players;
    if h.players.len() < lo || h.players.len() > hi {
        return Err(fail(
            src,
            Code::ScriptPlayers,
            h.players_span.clone(),
            format!(
                "{} is for {lo} to {hi} players, not {}",
                variant.name,
                h.players.len()
            ),
            "players",
        ));
    }
    if let Some((p, c)) = h
        .players
        .iter()
        .find_map(|p| crate::paths::control_char(p).map(|c| (p, c)))
    {
        return Err(fail(
            src,
            Code::ScriptPlayers,
            h.players_span.clone(),
            format!(
                "player name `{}` holds {}",
                p.escape_debug(),
                crate::paths::shown_char(c)
            ),
            "players",
        ));
    }
    let twice = (0..h.players.len()).find(|&i| h.players[..i].contains(&h.players[i]));
    if let Some(p) = twice.map(|i| &h.players[i]) {
        return Err(fail(
            src,
            Code::ScriptPlayers,
            h.players_span.clone(),
            format!("player name `{p}` given twice"),
            "players",
        ));
    }
    Ok(())
}

/// The variant's configuration with the script's start squares and draw stack.
fn configure(src: &Source, h: &Header, variant: &Variant) -> Result<Config, InputError> {
    if !h.starts.is_empty() && variant.map.is_none() {
        return Err(fail(
            src,
            Code::ScriptSetup,
            h.starts_span.clone(),
            format!(
                "{} is played on the endless table: it has no start squares to choose",
                variant.name
            ),
            "no map",
        ));
    }
    let mut cfg: Config = (*variant.config).clone();
    cfg.start_names = h.starts.clone();
    if let Some((id, rot, span)) = &h.start {
        let Some(t) = cfg.tile_by_id(id) else {
            return Err(fail(
                src,
                Code::ScriptSetup,
                span.clone(),
                format!("no tile `{id}` in this variant's tile sets"),
                "unknown tile",
            ));
        };
        cfg.start_tile = t;
        cfg.start_rot = *rot;
        cfg.start_named = true;
    }
    if let Some((ids, span)) = &h.tiles {
        let most = crate::variant::MAX_TILES;
        if ids.len() as u64 > most {
            return Err(fail(
                src,
                Code::ScriptSetup,
                span.clone(),
                format!("{} tiles; a game takes at most {most}", ids.len()),
                "too many tiles",
            ));
        }
        let mut order = Vec::new();
        for id in ids {
            let Some(t) = cfg.tile_by_id(id) else {
                return Err(fail(
                    src,
                    Code::ScriptSetup,
                    span.clone(),
                    format!("no tile `{id}` in this variant's tile sets"),
                    "unknown tile",
                ));
            };
            order.push(t);
        }
        cfg.fixed_stack = Some(order);
    }
    Ok(cfg)
}

/// Moves the chips of the script's `chip` lines to their places, as setup left them otherwise.
fn lay_chips(src: &Source, h: &Header, game: &mut Game<Interp>) -> Result<(), InputError> {
    for (id, place, up, span) in &h.chips {
        lay_chip(game, *id, place, *up)
            .map_err(|(msg, label)| fail(src, Code::ScriptSetup, span.clone(), msg, label))?;
    }
    Ok(())
}

/// Lays chip `id` at `place` (as logs write places) after setup, and records it in the game's
/// configuration for the log (`game_start.chips`); a script's `chip ID at PLACE`, and a replay of
/// its log. An error comes with the label for the part of the line it is about.
pub(crate) fn lay_chip(
    game: &mut Game<Interp>,
    id: u16,
    place: &str,
    up: bool,
) -> Result<(), (String, &'static str)> {
    let Some(p) = parse_place(game, place) else {
        return Err((
            place_problem(game, place),
            "supply, aside, box, map:X,Y, hand:NAME, slot:X,Y:I (I below the square's slots), under:FOLLOWER or a holding area's name (NAME:PLAYER for one per player)",
        ));
    };
    if (id as usize) >= game.st.chips.len() {
        return Err((
            format!("no chip {id}: the chip set has {}", game.st.chips.len()),
            "chip id",
        ));
    }
    let turn = game.st.turn;
    game.st.turn = 0;
    game.st.move_chip(id, p, up);
    game.st.turn = turn;
    let at = crate::output::Namer { game: &*game }.place(p);
    std::sync::Arc::make_mut(&mut game.cfg)
        .laid_chips
        .push(crate::game::LaidChip {
            id,
            at,
            face_up: up,
        });
    Ok(())
}

/// Plays the script's steps, then every step that needs no decision.
fn play_steps(
    src: &Source,
    game: &mut Game<Interp>,
    variant: &Variant,
    steps: Vec<(Step, Range<usize>)>,
    seed: u64,
) -> Result<(), InputError> {
    let mut rng = Rng::new(seed).fork();
    let end = steps.last().map_or(0..0, |(_, span)| span.clone());
    // A rule's failure is reported at the script's line, with where the rule is.
    let game_fail = |span: Range<usize>, e: crate::game::GameError, label: &str| {
        let mut d = Diagnostic::error(e.code(), span, e.to_string()).with_label(label);
        if let Some(note) = variant.failure_note(&e) {
            d = d.with_note(note);
        }
        InputError::in_file(src, vec![d])
    };
    for (step, span) in steps {
        let live = game
            .advance()
            .map_err(|e| game_fail(span.clone(), e, "while playing up to this step"))?;
        match step {
            Step::Choose(name) => {
                if !live {
                    return Err(fail(
                        src,
                        Code::MoveRefused,
                        span,
                        "the game is over: no decision is left",
                        "this step",
                    ));
                }
                let name = decider_named(game, &name).map_err(|why| {
                    fail(src, Code::MoveRefused, span.clone(), why, "who decides")
                })?;
                let i = game
                    .find_option(name)
                    .map_err(|why| refused(src, span.clone(), why, name, variant))?;
                game.choose(i)
                    .map_err(|e| game_fail(span, e, "while taking this option"))?;
            }
            Step::Rest => {
                play_random(game, &mut rng).map_err(|e| game_fail(span, e, "while playing on"))?;
            }
            expectation => expect(game, live, &expectation)
                .map_err(|(msg, label)| fail(src, Code::ExpectationFailed, span, msg, label))?,
        }
    }
    // After the last line, every step that needs no decision is played (scoring, the end of the
    // game); a decision still pending leaves the game unfinished (`Game::pending_decision`).
    game.advance()
        .map_err(|e| game_fail(end, e, "while playing on after the last line"))?;
    Ok(())
}

/// A move the game refused; a move naming an action a house rule removed says where it is removed.
fn refused(
    src: &Source,
    span: Range<usize>,
    why: String,
    name: &str,
    variant: &Variant,
) -> InputError {
    let mut d = Diagnostic::error(Code::MoveRefused, span, why).with_label("refused");
    let action = name.split_whitespace().next().unwrap_or("");
    if let Some(at) = variant.removal_of(action) {
        d = d.with_note(format!(
            "there is no action `{action}`: the house rule at {at} removes it (`remove action {action}`)"
        ));
    }
    InputError::in_file(src, vec![d])
}

/// A failed assertion: the message and the label of the line.
type Failed = (String, &'static str);

/// Checks an assertion step (`expect …`) against the game as it stands.
fn expect(game: &Game<Interp>, live: bool, step: &Step) -> Result<(), Failed> {
    match step {
        Step::ExpectScore(who, n) => expect_score(game, who, *n),
        Step::ExpectFinalScore(who, n) => {
            let mut copy = game.clone();
            copy.end_now().map_err(|e| {
                (
                    format!("final scoring: {e}"),
                    "while scoring as if the game ended",
                )
            })?;
            expect_score(&copy, who, *n).map_err(|(m, l)| (format!("{m} if the game ended now"), l))
        }
        Step::ExpectOptions(n) => expect_options(game, live, *n),
        Step::ExpectChip(id, place) => expect_chip(game, *id, place),
        Step::ExpectFollower(id, place) => expect_follower(game, id, place),
        Step::ExpectState(name, v) => expect_state(game, name, v),
        Step::Choose(_) | Step::Rest => Ok(()),
    }
}

/// `expect state NAME V` (a state kept for the game) or `expect state PLAYER.NAME V` (a player's).
fn expect_state(game: &Game<Interp>, name: &str, want: &str) -> Result<(), Failed> {
    let defs = &game.cfg.counters;
    let (player, state) = match name.split_once('.') {
        Some((p, s)) => (Some(p), s),
        None => (None, name),
    };
    let Some(id) = defs.iter().position(|d| d.name == state) else {
        let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
        return Err((
            format!(
                "the rules keep no state `{state}` (they keep: {})",
                names.join(", ")
            ),
            "state",
        ));
    };
    let d = &defs[id];
    let p = match (d.per_player, player) {
        (true, Some(who)) => match game.st.players.iter().position(|p| p.name == who) {
            Some(p) => Some(p as u8),
            None => return Err((format!("no player `{who}`"), "player")),
        },
        (true, None) => {
            return Err((
                format!("`{state}` is kept per player: write `PLAYER.{state}`"),
                "whose?",
            ))
        }
        (false, Some(_)) => {
            return Err((
                format!("`{state}` is kept for the game: write `{state}`"),
                "state",
            ))
        }
        (false, None) => None,
    };
    let have = game
        .st
        .counters
        .get(id as u16, p)
        .map_or(String::new(), |v| d.shown(v));
    if have != want {
        return Err((format!("{name} is {have}, not {want}"), "assertion failed"));
    }
    Ok(())
}

/// `expect score NAME N`.
fn expect_score(game: &Game<Interp>, who: &str, n: i64) -> Result<(), Failed> {
    let Some(p) = game.st.players.iter().find(|p| p.name == who) else {
        return Err((format!("no player `{who}`"), "player"));
    };
    if p.score != n {
        return Err((
            format!("{who} has {} points, not {n}", p.score),
            "assertion failed",
        ));
    }
    Ok(())
}

/// `expect options N` (none once the game is over).
fn expect_options(game: &Game<Interp>, live: bool, n: usize) -> Result<(), Failed> {
    let have = if live { game.options.len() } else { 0 };
    if have != n {
        return Err((
            format!(
                "there are {have} options, not {n}: {}",
                game.option_names().join(" | ")
            ),
            "assertion failed",
        ));
    }
    Ok(())
}

/// `expect chip ID at PLACE`.
fn expect_chip(game: &Game<Interp>, id: u16, place: &str) -> Result<(), Failed> {
    let Some(want) = parse_place(game, place) else {
        return Err((place_problem(game, place), "place"));
    };
    let Some(c) = game.st.chips.get(id as usize) else {
        return Err((format!("no chip {id}"), "chip id"));
    };
    if c.place != want {
        let n = crate::output::Namer { game };
        return Err((
            format!("chip {id} is at {}, not {place}", n.place(c.place)),
            "assertion failed",
        ));
    }
    Ok(())
}

/// `expect follower ID at PLACE` (`board` for anywhere on the board).
fn expect_follower(game: &Game<Interp>, id: &str, place: &str) -> Result<(), Failed> {
    let Some(f) = (0..game.st.followers.len() as u16).find(|&f| game.st.follower_id(f) == id)
    else {
        return Err((format!("no follower `{id}`"), "follower id (NAME.N)"));
    };
    let n = crate::output::Namer { game };
    let at = game.st.followers[f as usize].at;
    let now = n.follower_place(f, at);
    let ok = now == place || (place == "board" && matches!(at, FollowerAt::Board(_)));
    if !ok {
        return Err((
            format!("follower {id} is at {now}, not {place}"),
            "assertion failed",
        ));
    }
    Ok(())
}

/// A step's option name without its `PLAYER:` prefix, which must name the player who decides. A
/// decision a rule asks of a player (`ask`) must be written with the prefix, so a script says who
/// decides wherever it is not simply the turn's player.
fn decider_named<'a>(game: &Game<Interp>, step: &'a str) -> Result<&'a str, String> {
    let decider = game.decider();
    let name_of = |p: u8| {
        game.st
            .players
            .get(p as usize)
            .map_or("?".to_string(), |x| x.name.clone())
    };
    let prefixed = step.split_once(": ").and_then(|(who, rest)| {
        let p = game.st.players.iter().position(|x| x.name == who.trim())?;
        Some((p as u8, rest.trim()))
    });
    match prefixed {
        Some((p, rest)) if p == decider => Ok(rest),
        Some((p, _)) => Err(format!(
            "this decision is {}'s, not {}'s ({})",
            name_of(decider),
            name_of(p),
            game.pending_decision().unwrap_or_default()
        )),
        None if game.is_asked() => Err(format!(
            "a rule asks {0} for this decision: write `{0}: {step}` ({1})",
            name_of(decider),
            game.pending_decision().unwrap_or_default()
        )),
        None => Ok(step),
    }
}

/// Why `parse_place` refused a place: coordinates outside the board say so, with the board's range.
fn place_problem(game: &Game<Interp>, place: &str) -> String {
    let at = place.strip_prefix("map:").or_else(|| {
        place
            .strip_prefix("slot:")
            .and_then(|r| r.rsplit_once(':'))
            .map(|(at, _)| at)
    });
    let xy = at
        .and_then(|a| a.split_once(','))
        .and_then(|(x, y)| Some((x.trim().parse::<i64>().ok()?, y.trim().parse::<i64>().ok()?)));
    let b = &game.st.board;
    let inside = |(x, y): (i64, i64)| {
        i32::try_from(x)
            .ok()
            .zip(i32::try_from(y).ok())
            .and_then(|(x, y)| b.cell_at(x, y))
            .is_some()
    };
    match xy {
        Some(p) if !inside(p) => format!(
            "`{place}` is outside the board: x runs from {} to {}, y from {} to {}",
            1 - b.origin.0,
            b.gw - 2 - b.origin.0,
            1 - b.origin.1,
            b.gh - 2 - b.origin.1
        ),
        Some((x, y)) if place.starts_with("slot:") => {
            // Inside the board: the index is too high (or not a number) for the square's slots.
            let slots = slot_count(game, x, y);
            let index = place.rsplit(':').next().unwrap_or("");
            match slots {
                0 => format!(
                    "square {x},{y} has no chip slots (its `slots` attribute is 0 or unset)"
                ),
                n => format!(
                    "square {x},{y} has {n} chip slot(s), numbered 0 to {}: no slot `{index}`",
                    n - 1
                ),
            }
        }
        _ => {
            let mut forms =
                String::from("supply, aside, box, map:X,Y, hand:NAME, slot:X,Y:I, under:FOLLOWER");
            for (h, per) in game.cfg.holdings.iter().zip(&game.cfg.holdings_per_player) {
                forms.push_str(", ");
                forms.push_str(h);
                if *per {
                    forms.push_str(":NAME");
                }
            }
            format!("unknown place `{place}` (places: {forms})")
        }
    }
}

/// The number of chip slots of the map square at x,y (its `slots` attribute; 0 off the map).
fn slot_count(game: &Game<Interp>, x: i64, y: i64) -> i64 {
    let cell = i32::try_from(x)
        .ok()
        .zip(i32::try_from(y).ok())
        .and_then(|(x, y)| game.st.board.cell_at(x, y));
    let attrs = cell
        .and_then(|c| game.st.board.square.get(c as usize))
        .and_then(|&sq| game.cfg.map.as_ref()?.squares.get(sq as usize))
        .map(|s| &s.attrs);
    match attrs.and_then(|a| a.get("slots")) {
        Some(crate::map::AttrValue::Int(n)) => *n,
        _ => 0,
    }
}

/// Parses a place as the log writes it.
pub(crate) fn parse_place(game: &Game<Interp>, s: &str) -> Option<Place> {
    let xy = |t: &str| -> Option<u32> {
        let (x, y) = t.split_once(',')?;
        game.st
            .board
            .cell_at(x.trim().parse().ok()?, y.trim().parse().ok()?)
    };
    Some(match s {
        "supply" => Place::Supply,
        "aside" => Place::Aside,
        "box" => Place::Box,
        // A holding area, by the name the rules give it (as transcripts and logs print it); one
        // per player is named with the player (`bid:ann`).
        _ if game.cfg.holdings.iter().any(|h| h == s) => {
            let h = game.cfg.holdings.iter().position(|h| h == s)?;
            if game.cfg.holdings_per_player.get(h) == Some(&true) {
                return None;
            }
            Place::Holding(h as u8)
        }
        _ => {
            let (kind, rest) = s.split_once(':')?;
            let per_player = |k: &str| {
                let h = game.cfg.holdings.iter().position(|h| h == k)?;
                (game.cfg.holdings_per_player.get(h) == Some(&true)).then_some(h as u8)
            };
            if let Some(h) = per_player(kind) {
                let p = game.st.players.iter().position(|p| p.name == rest)?;
                return Some(Place::PlayerHolding(h, p as u8));
            }
            match kind {
                "map" => Place::Square(xy(rest)?),
                "hand" => Place::Hand(game.st.players.iter().position(|p| p.name == rest)? as u8),
                "slot" => {
                    // A slot index is below the square's number of slots (its `slots` attribute).
                    let (at, i) = rest.rsplit_once(':')?;
                    let cell = xy(at)?;
                    let i: u8 = i.parse().ok()?;
                    let sq = *game.st.board.square.get(cell as usize)?;
                    let slots = match game
                        .cfg
                        .map
                        .as_ref()?
                        .squares
                        .get(sq as usize)?
                        .attrs
                        .get("slots")
                    {
                        Some(crate::map::AttrValue::Int(n)) => *n,
                        _ => 0,
                    };
                    if i64::from(i) >= slots {
                        return None;
                    }
                    Place::Slot(cell, i)
                }
                "under" => {
                    let f = (0..game.st.followers.len() as u16)
                        .find(|&f| game.st.follower_id(f) == rest)?;
                    Place::Under(f)
                }
                _ => return None,
            }
        }
    })
}
