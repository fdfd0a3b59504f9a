//! What a variant's documentation page holds, gathered from the checked program and the syntax tree of
//! each file it was built from: the header's prose, the map, the parameters, and every setup block, rule
//! and action with its English sentence and its source.

use super::english::{self, title_case, Words};
use crate::diag::Source;
use crate::lang::ast::{self, ItemKind, LimitKind};
use crate::lang::builtins::{HeaderKey, Ty};
use crate::lang::check::{house, BundledRules, RulesResolver};
use crate::lang::ir::{Expr, Origin, Value};
use crate::lang::phrases::phase_phrase;
use crate::variant::{value_json, Variant};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// The variant's name (`carto list`).
    pub name: String,
    pub title: String,
    /// The header's `doc`, dedented.
    pub(crate) doc: String,
    pub(crate) map: Option<MapInfo>,
    pub players: [usize; 2],
    pub(crate) followers: u32,
    pub(crate) tiles: u32,
    pub(crate) tile_sets: Vec<String>,
    /// Chip colours, and how many chips in all.
    pub(crate) chip_colours: Vec<String>,
    pub(crate) chips: usize,
    pub params: Vec<ParamInfo>,
    pub setup: Vec<Item>,
    pub rules: Vec<Item>,
    pub actions: Vec<Item>,
    /// The turn and the end of the game, as Markdown paragraphs (from the phases and triggers the
    /// rules use).
    pub turn: Vec<String>,
    /// The holding areas (`holding NAME ["Title"] [per player]`).
    pub(crate) holdings: Vec<HoldingInfo>,
    /// The state the rules keep (`state NAME …`).
    pub(crate) states: Vec<super::states::StateInfo>,
    /// What the map data says that the rules read (bands' rows, chip spots, border exits, ferries),
    /// as Markdown paragraphs.
    pub map_facts: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct HoldingInfo {
    /// The name the rules and the logs use.
    pub(crate) name: String,
    /// What people read: the title the rules give the holding area, else its name.
    pub(crate) title: String,
    pub(crate) per_player: bool,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct MapInfo {
    pub(crate) name: String,
    pub(crate) width: i32,
    pub(crate) height: i32,
    pub(crate) start_squares: Vec<String>,
    /// How many start squares a game uses.
    pub(crate) starts_used: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct ParamInfo {
    pub(crate) name: String,
    #[serde(rename = "type")]
    pub(crate) ty: String,
    /// `in …` or `one of […]` as written; empty when any value of the type is allowed.
    pub(crate) range: String,
    pub(crate) default: serde_json::Value,
    /// The value in force (the default, an `override`, or `--set`).
    pub(crate) value: serde_json::Value,
    pub(crate) doc: String,
}

/// A setup block, rule or action.
#[derive(Clone, Debug, Serialize)]
pub struct Item {
    /// The name in the rules (`sell_abroad`); `setup` for a setup block.
    pub name: String,
    /// What kind of item: `setup`, `rule`, `action` or `forced`.
    pub kind: &'static str,
    /// The name for people ("Sell abroad").
    pub(crate) heading: String,
    /// When it applies: for actions, phase and limits ("phase 3, once per turn"); for rules, the
    /// parameters that switch them ("`takeover` is on"), if any.
    pub(crate) when: String,
    /// The English sentence, generated from the syntax tree, as plain text.
    pub sentence: String,
    /// The same sentence in Markdown (names of choices and locals in italics, parameters in code).
    pub(crate) markdown: String,
    /// A rule's trigger (`scored`); empty for setup and actions.
    pub(crate) trigger: String,
    /// An action's phase (`start`, `follower`, `score`, `after`); empty for forced and asked ones.
    pub(crate) phase: String,
    /// A rule that applies only at the end of the game (a `scored` rule that tests an incomplete
    /// feature or a farm, or a `game_end` rule).
    pub(crate) final_only: bool,
    /// Its body scores points.
    pub(crate) scores: bool,
    /// The comment right above it in the rules file.
    pub(crate) comment: String,
    /// The rules file (`rules/NAME.rules` for a bundled one) and the line it starts on.
    pub(crate) file: String,
    pub(crate) line: usize,
    /// Its source text.
    pub(crate) source: String,
}

/// Gathers the page of a variant.
pub fn page(v: &Variant) -> Page {
    let p = &v.program;
    let trees = Trees::read(v);
    let words = || {
        let mut w = Words::new(param_words(v), attr_words(v));
        w.holdings = p.holdings.clone();
        w.holding_names = holding_names(p);
        w.states = p
            .states
            .iter()
            .map(|s| (s.name.clone(), s.ty == Ty::BOOL))
            .collect();
        w.values = p
            .params
            .iter()
            .map(|par| (par.name.clone(), value_json(p, par.value)))
            .collect();
        w
    };
    let mut page = Page {
        name: v.name.clone(),
        title: header_str(v, HeaderKey::Title).unwrap_or_else(|| v.name.clone()),
        doc: header_str(v, HeaderKey::Doc)
            .map(|d| dedent(&d))
            .unwrap_or_default(),
        map: map_info(v),
        players: [v.players.0, v.players.1],
        followers: v.config.followers as u32,
        tiles: v.config.counts.iter().sum(),
        tile_sets: crate::header::header_strings(p, HeaderKey::Tiles),
        chip_colours: p.colours.clone(),
        chips: p.chips.len(),
        params: params(v),
        setup: setup_items(&trees, &words),
        rules: rule_items(v, &trees, &words),
        actions: action_items(v, &trees, &words),
        turn: Vec::new(),
        holdings: p
            .holdings
            .iter()
            .zip(&p.holding_titles)
            .zip(&p.holdings_per_player)
            .map(|((name, title), &per_player)| HoldingInfo {
                name: name.clone(),
                title: title.clone().unwrap_or_else(|| name.clone()),
                per_player,
            })
            .collect(),
        states: super::states::states(p),
        map_facts: super::mapfacts::facts(v),
    };
    let facts = super::turn::Facts {
        map: v.map.is_some(),
        starts: page
            .map
            .as_ref()
            .map_or(Vec::new(), |m| m.start_squares.clone()),
        starts_used: page.map.as_ref().map_or(0, |m| m.starts_used),
        hand_face_down: hand_face_down(&trees),
    };
    page.turn = super::turn::section(&page, &facts);
    page
}

/// Whether some rule, action or setup block moves or draws chips into a hand face down.
fn hand_face_down(trees: &Trees) -> bool {
    fn of(kind: &ItemKind) -> Vec<&ast::Block> {
        match kind {
            ItemKind::Setup(b) => vec![b],
            ItemKind::Rule { body, .. } => vec![body],
            ItemKind::Action(a) => vec![&a.body],
            ItemKind::Replace(k) => of(k),
            ItemKind::Change(c) => c.body.iter().collect(),
            _ => Vec::new(),
        }
    }
    let is_hand = |e: &ast::Expr| matches!(&e.kind, ast::ExprKind::Call(n, _) if n.name == "hand");
    let is_down = |e: &ast::Expr| matches!(&e.kind, ast::ExprKind::Name(n) if n == "down");
    trees.items().any(|(item, _)| {
        of(&item.kind).into_iter().any(|b| {
            calls_in(b).iter().any(|(n, args)| {
                matches!(*n, "move" | "draw")
                    && args.iter().any(is_hand)
                    && args.last().is_some_and(is_down)
            })
        })
    })
}

/// The source and syntax tree of each file the program was built from (by `Origin::file`).
struct Trees {
    sources: Vec<Option<Source>>,
    trees: Vec<Option<ast::File>>,
}

impl Trees {
    fn read(v: &Variant) -> Trees {
        let sources: Vec<Option<Source>> = (0..v.program.files.len())
            .map(|i| source_of(v, i))
            .collect();
        let trees = sources
            .iter()
            .map(|s| s.as_ref().map(|s| crate::lang::parser::parse_file(s).0))
            .collect();
        Trees { sources, trees }
    }

    /// Every file's items, with the file's source.
    fn items(&self) -> impl Iterator<Item = (&ast::Item, &Source)> {
        self.trees
            .iter()
            .zip(&self.sources)
            .filter_map(|(t, s)| Some((t.as_ref()?, s.as_ref()?)))
            .flat_map(|(t, s)| t.items.iter().map(move |i| (i, s)))
    }

    /// The item that starts at `o`, with its source.
    fn find(&self, o: &Origin) -> Option<(&ast::Item, &Source)> {
        let tree = self.trees.get(o.file as usize)?.as_ref()?;
        let src = self.sources.get(o.file as usize)?.as_ref()?;
        let item = tree.items.iter().find(|i| i.span.start == o.span.start)?;
        Some((item, src))
    }

    /// The definition at `origin` with its changes applied ([`in_force`]).
    fn in_force(&self, origin: &Origin, changes: &[Origin]) -> Option<InForce<'_>> {
        in_force(origin, changes, &|o: &Origin| self.find(o))
    }
}

/// The variant's map: its name, size and start squares.
fn map_info(v: &Variant) -> Option<MapInfo> {
    v.map.as_ref().map(|m| MapInfo {
        name: m.name.clone(),
        width: m.width,
        height: m.height,
        start_squares: m.starts.iter().map(|s| s.name.clone()).collect(),
        starts_used: v.config.start_squares.min(m.starts.len()),
    })
}

/// Every setup block, one row per statement, so each sentence sits beside its own lines.
fn setup_items(trees: &Trees, words: &dyn Fn() -> Words) -> Vec<Item> {
    let mut setup = Vec::new();
    for (item, src) in trees.items() {
        if let ItemKind::Setup(block) = &item.kind {
            let mut w = words();
            for stmt in &block.stmts {
                let sentence = english::tidy(&(capitalise(&w.stmt(stmt)) + "."));
                setup.push(make_item(
                    "setup", "setup", "Setup", "", sentence, src, &stmt.span,
                ));
            }
        }
    }
    setup
}

/// Every rule in force, as its definition with its changes reads.
fn rule_items(v: &Variant, trees: &Trees, words: &dyn Fn() -> Words) -> Vec<Item> {
    v.program
        .rules
        .iter()
        .filter_map(|r| {
            let def = trees.in_force(&r.origin, &r.changes)?;
            let ItemKind::Rule {
                trigger,
                when,
                body,
                ..
            } = &def.kind
            else {
                return None;
            };
            let sentence = rule_sentence(
                &mut words(),
                &trigger.name,
                when.as_ref(),
                body,
                v.config.border_fills_monastery && v.map.is_some(),
            );
            let m = super::moment::moment(&trigger.name, when.as_ref(), true);
            // A rule's `when`: the parameters that switch it, if any.
            let switches = words().switches(&m.rest);
            let mut it = def.item(&r.name, "rule", &switches, sentence);
            it.trigger = trigger.name.clone();
            it.final_only =
                trigger.name == "game_end" || m.lead.starts_with("at the end of the game");
            it.scores = calls_in(body).iter().any(|(n, _)| *n == "score");
            Some(it)
        })
        .collect()
}

/// Every action in force, with when it may be taken (its phase and limits, shared groups included).
fn action_items(v: &Variant, trees: &Trees, words: &dyn Fn() -> Words) -> Vec<Item> {
    let actions = &v.program.actions;
    let defs: Vec<Option<InForce>> = actions
        .iter()
        .map(|a| trees.in_force(&a.origin, &a.changes))
        .collect();
    let groups = action_groups(defs.iter().flatten().map(|d| &d.kind));
    let askers = askers(&v.program);
    actions
        .iter()
        .zip(&defs)
        .zip(&askers)
        .filter_map(|((a, def), asker)| {
            let def = def.as_ref()?;
            let ItemKind::Action(decl) = &def.kind else {
                return None;
            };
            let when = action_when(decl, &limit_values(v, a, decl), &groups, asker);
            let sentence = action_sentence(&mut words(), decl);
            let kind = if decl.forced { "forced" } else { "action" };
            let mut it = def.item(&a.name, kind, &when, sentence);
            if !decl.forced && decl.params.is_none() {
                it.phase = decl
                    .phase
                    .as_ref()
                    .map_or("score".to_string(), |p| p.name.clone());
            }
            it.scores = calls_in(&decl.body).iter().any(|(n, _)| *n == "score");
            Some(it)
        })
        .collect()
}

/// A rule or action as in force: its definition with the house rules' changes applied.
struct InForce<'a> {
    kind: ItemKind,
    item: &'a ast::Item,
    src: &'a Source,
    /// Each `change` item applied, with its source.
    changes: Vec<(&'a ast::Item, &'a Source)>,
}

impl InForce<'_> {
    /// The page's item: the sentence of the definition in force, beside the definition's source and
    /// each change's, with where the changes are.
    fn item(&self, name: &str, kind: &'static str, when: &str, sentence: String) -> Item {
        let mut sentence = sentence;
        let mut it = make_item(
            name,
            kind,
            &title_case(name),
            when,
            String::new(),
            self.src,
            &self.item.span,
        );
        if matches!(self.item.kind, ItemKind::Replace(_)) && !self.src.name.starts_with("rules/") {
            let (line, _) = self.src.line_col(self.item.span.start);
            sentence.push_str(&format!(
                " Replaced by the house rule at {}:{line}.",
                self.src.name
            ));
        }
        for (change, src) in &self.changes {
            let (line, _) = src.line_col(change.span.start);
            // The change's comment says what the rule now does.
            let note = comment_above(&src.text, change.span.start.min(src.text.len()));
            if !note.is_empty() {
                it.comment = note;
            }
            // A bundled variant's own changes are its rules, not a house rule's.
            if !src.name.starts_with("rules/") {
                sentence.push_str(&format!(
                    " Changed by the house rule at {}:{line}.",
                    src.name
                ));
            }
            // Not the comments after it, which belong to the next item.
            let text = without_trailing_comments(src.text.get(change.span.clone()).unwrap_or(""));
            it.source
                .push_str(&format!("\n# {}:{line}\n{text}", src.name));
        }
        it.sentence = plain(&sentence);
        it.markdown = sentence;
        it
    }
}

/// The definition at `origin` (a `replace` unwrapped) with every change at `changes` applied.
fn in_force<'a>(
    origin: &Origin,
    changes: &[Origin],
    find: &impl Fn(&Origin) -> Option<(&'a ast::Item, &'a Source)>,
) -> Option<InForce<'a>> {
    let (item, src) = find(origin)?;
    let mut kind = match &item.kind {
        ItemKind::Replace(inner) => (**inner).clone(),
        k => k.clone(),
    };
    let mut parts = house::PartFiles::all(0, &kind);
    let mut applied = Vec::new();
    for o in changes {
        let Some((change, csrc)) = find(o) else {
            continue;
        };
        if let ItemKind::Change(ch) = &change.kind {
            house::apply_change(&mut kind, &mut parts, ch, 0);
            applied.push((change, csrc));
        }
    }
    Some(InForce {
        kind,
        item,
        src,
        changes: applied,
    })
}

fn make_item(
    name: &str,
    kind: &'static str,
    heading: &str,
    when: &str,
    sentence: String,
    src: &Source,
    span: &ast::Span,
) -> Item {
    let start = span.start.min(src.text.len());
    let end = span.end.clamp(start, src.text.len());
    Item {
        name: name.to_string(),
        kind,
        heading: heading.to_string(),
        when: when.to_string(),
        markdown: sentence.clone(),
        sentence: plain(&sentence),
        trigger: String::new(),
        phase: String::new(),
        final_only: false,
        scores: false,
        comment: comment_above(&src.text, start),
        file: src.name.clone(),
        line: src.line_col(start).0,
        source: without_trailing_comments(src.text.get(start..end).unwrap_or("")),
    }
}

fn rule_sentence(
    w: &mut Words,
    trigger: &str,
    when: Option<&ast::Expr>,
    body: &ast::Block,
    border_fills: bool,
) -> String {
    let m = super::moment::moment(trigger, when, border_fills);
    w.bound = m.binds.clone();
    w.you_current = m.you_current;
    w.feature_kind = m.kind.clone();
    let mut out = format!("{},", m.lead);
    let conds: Vec<String> = w.conds(&m.rest);
    match conds.len() {
        0 => {}
        1 | 2 => out.push_str(&format!(" if {}, then", conds.join(" and "))),
        _ => out.push_str(&format!(" if {}; then", english::numbered(&conds, true))),
    }
    out.push_str(&format!(" {}.", w.block(body)));
    english::tidy(&capitalise(&out))
}

fn action_sentence(w: &mut Words, a: &ast::ActionDecl) -> String {
    w.bound = vec![("player".into(), "you".into())];
    w.you_current = a.params.is_none();
    // An asked action's parameters read like `let`s: *f*.
    for (name, _) in a.params.iter().flatten() {
        w.locals.push(name.name.clone());
    }
    let mut out = String::new();
    // A forced action with a choice reads choice first: "As soon as you can choose *set*, …, you
    // must; then …", and its condition (a quick test before the choice) after it.
    let choice_first = a.forced && !a.choices.is_empty();
    let mut checked = String::new();
    if let Some(c) = &a.when {
        if choice_first {
            checked = format!(
                " The game looks for a choice only when {}.",
                w.pred(c, false)
            );
        } else {
            let lead = if a.forced { "as soon as" } else { "when" };
            out.push_str(&format!("{lead} {}, ", w.pred(c, false)));
        }
    } else if a.forced && !choice_first {
        out.push_str("at once, ");
    }
    let verb = if a.forced { "must" } else { "may" };
    let choices: Vec<String> = a.choices.iter().map(|c| w.choice(c)).collect();
    let body = w.block(&a.body);
    if choice_first {
        out.push_str(&format!(
            "as soon as you can choose {}, you must choose one (you pick which, if several are possible); then {body}.{checked}",
            choices.join("; and ")
        ));
        return english::tidy(&capitalise(&out));
    }
    if choices.is_empty() {
        out.push_str(&format!("you {verb} have this happen: {body}."));
    } else {
        out.push_str(&format!(
            "you {verb} choose {}; then {body}.",
            choices.join("; and ")
        ));
    }
    english::tidy(&capitalise(&out))
}

/// How many times per `unit` a limit allows, `value` its count with the parameters in force: "once
/// per turn", "up to 2 times per turn", "up to 3 (`signals`) times per turn", "up to 4 (`signals` +
/// 1) times per turn".
fn times_per(count: Option<&ast::Expr>, value: Option<i64>, unit: &str) -> String {
    let Some(e) = count else {
        return format!("once per {unit}");
    };
    let formula = count_formula(e);
    match (value, &e.kind) {
        (Some(1), _) => format!("once per {unit}"),
        (Some(n), ast::ExprKind::Int(_)) => format!("up to {n} times per {unit}"),
        (Some(n), _) => format!("up to {n} ({formula}) times per {unit}"),
        (None, _) => format!("up to {formula} times per {unit}"),
    }
}

/// The count of each of an action's limits as the game reads it (parameters in force), in the order
/// written; `None` for a flag, or for every limit when the compiled ones do not line up.
fn limit_values(
    v: &Variant,
    action: &crate::lang::ir::Action,
    decl: &ast::ActionDecl,
) -> Vec<Option<i64>> {
    use crate::lang::ir::Limit;
    if action.limits.len() != decl.limits.len() {
        return vec![None; decl.limits.len()];
    }
    let p = &v.program;
    action
        .limits
        .iter()
        .map(|l| match l {
            Limit::PerTurn(e) | Limit::PerRound(e) | Limit::Group(_, Some(e)) => p.limit_count(e),
            Limit::Group(_, None) => Some(1),
            Limit::NoFollower | Limit::NotExtra => None,
        })
        .collect()
}

/// A limit's count as written, parameters in backticks: "`signals` + 1".
fn count_formula(e: &ast::Expr) -> String {
    use ast::{ExprKind, UnOp};
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Name(p) => format!("`{p}`"),
        ExprKind::Unary(UnOp::Neg, x) => format!("−{}", count_formula(x)),
        ExprKind::Binary(op, a, b) => {
            let side = |x: &ast::Expr| match x.kind {
                ExprKind::Binary(..) => format!("({})", count_formula(x)),
                _ => count_formula(x),
            };
            let symbol = match op.symbol() {
                "*" => "×",
                s => s,
            };
            format!("{} {symbol} {}", side(a), side(b))
        }
        _ => "a set number of".into(),
    }
}

/// Who asks each action (by index), in words: "a rule", "an action (*offer*)", "a rule or an
/// action (*offer*)"; "a rule" for an action nothing asks (an asked action is offered by `ask`).
fn askers(prog: &crate::lang::ir::Program) -> Vec<String> {
    use crate::lang::ir::Stmt;
    fn walk(stmts: &[Stmt], out: &mut Vec<usize>) {
        for s in stmts {
            match s {
                Stmt::Ask { action, .. } => out.push(*action as usize),
                Stmt::If(branches, other, _) => {
                    for (_, b) in branches {
                        walk(b, out);
                    }
                    if let Some(b) = other {
                        walk(b, out);
                    }
                }
                Stmt::For(_, _, b, _) => walk(b, out),
                Stmt::Let(..) | Stmt::Effect(..) => {}
            }
        }
    }
    let n = prog.actions.len();
    let mut by_rule = vec![false; n];
    let mut by_action: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut asked = Vec::new();
    for r in &prog.rules {
        asked.clear();
        walk(&r.body.stmts, &mut asked);
        for &i in &asked {
            if let Some(b) = by_rule.get_mut(i) {
                *b = true;
            }
        }
    }
    for a in &prog.actions {
        asked.clear();
        walk(&a.body.stmts, &mut asked);
        for &i in &asked {
            let name = format!("*{}*", title_case(&a.name).to_lowercase());
            if let Some(names) = by_action.get_mut(i).filter(|v| !v.contains(&name)) {
                names.push(name);
            }
        }
    }
    by_rule
        .into_iter()
        .zip(by_action)
        .map(|(rule, actions)| match (rule, actions.is_empty()) {
            (_, true) => "a rule".to_string(),
            (false, false) => format!("an action ({})", actions.join(", ")),
            (true, false) => format!("a rule or an action ({})", actions.join(", ")),
        })
        .collect()
}

/// Phase and limits, as words: "phase 3, once per turn, shared with *sell town*"; an asked action
/// says who asks it (`asker`: "a rule", "an action (*offer*)").
fn action_when(
    a: &ast::ActionDecl,
    values: &[Option<i64>],
    groups: &BTreeMap<String, Vec<String>>,
    asker: &str,
) -> String {
    let mut parts: Vec<String> = Vec::new();
    if a.forced {
        parts.push("forced".into());
    } else if a.params.is_some() {
        parts.push(format!("when {asker} asks a player"));
    } else {
        let phase = a.phase.as_ref().map_or("score", |p| p.name.as_str());
        parts.push(phase_phrase(phase).unwrap_or(phase).to_string());
    }
    for (l, &value) in a.limits.iter().zip(values) {
        parts.push(match &l.kind {
            LimitKind::Per { unit, count } => times_per(Some(count), value, &unit.name),
            LimitKind::Group(g, count) => {
                let others: Vec<String> = groups
                    .get(&g.name)
                    .into_iter()
                    .flatten()
                    .filter(|n| **n != a.name.name)
                    .map(|n| format!("*{}*", title_case(n).to_lowercase()))
                    .collect();
                let times = times_per(count.as_ref(), value, "turn");
                if others.is_empty() {
                    times
                } else {
                    format!("{times}, shared with {}", others.join(", "))
                }
            }
            LimitKind::Flag(f) if f.name == "no_follower" => {
                "only in a turn without a follower placed".into()
            }
            LimitKind::Flag(f) if f.name == "not_extra" => "not in an extra turn".into(),
            LimitKind::Flag(f) => f.name.clone(),
        });
    }
    parts.join(", ")
}

/// Group name → the actions in force in it.
fn action_groups<'a>(defs: impl Iterator<Item = &'a ItemKind>) -> BTreeMap<String, Vec<String>> {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for kind in defs {
        if let ItemKind::Action(a) = kind {
            for l in &a.limits {
                if let LimitKind::Group(g, _) = &l.kind {
                    let names = groups.entry(g.name.clone()).or_default();
                    if !names.contains(&a.name.name) {
                        names.push(a.name.name.clone());
                    }
                }
            }
        }
    }
    groups
}

fn params(v: &Variant) -> Vec<ParamInfo> {
    let p = &v.program;
    p.params
        .iter()
        .map(|par| {
            let range = match (&par.range, par.one_of.is_empty()) {
                (Some(r), _) => format!("in {}", r.text()),
                (None, false) => {
                    let vals: Vec<String> = par
                        .one_of
                        .iter()
                        .map(|x| value_json(p, *x).to_string())
                        .collect();
                    format!("one of [{}]", vals.join(", "))
                }
                (None, true) => String::new(),
            };
            ParamInfo {
                name: par.name.clone(),
                ty: par.ty.to_string(),
                range,
                default: value_json(p, par.default),
                value: value_json(p, par.value),
                doc: par.doc.clone(),
            }
        })
        .collect()
}

fn param_words(v: &Variant) -> BTreeMap<String, (String, bool)> {
    v.program
        .params
        .iter()
        .map(|par| {
            let text = match par.value {
                Value::Table(_) => format!("`{}`", par.name),
                Value::Int(i) => i.to_string(),
                x => format!("`{}`", value_text(&value_json(&v.program, x))),
            };
            (par.name.clone(), (text, par.ty == Ty::BOOL))
        })
        .collect()
}

fn attr_words(v: &Variant) -> BTreeMap<String, bool> {
    v.program
        .attrs
        .iter()
        .map(|a| (a.name.clone(), a.ty == Ty::BOOL))
        .collect()
}

/// A JSON value as a reader writes it: strings without quotes, tables as `{k: v}`.
pub(crate) fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(m) => {
            let rows: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            format!("{{{}}}", rows.join(", "))
        }
        v => v.to_string(),
    }
}

fn header_str(v: &Variant, key: HeaderKey) -> Option<String> {
    let e = v.program.header.entries.iter().find(|e| e.key == key)?;
    match &e.value {
        Expr::Const(Value::Str(s)) => v.program.strings.get(*s as usize).cloned(),
        _ => None,
    }
}

/// The source of file `i` of the program: the text it was loaded from, else a bundled rules file, or
/// one read from disk again.
fn source_of(v: &Variant, i: usize) -> Option<Source> {
    let name = v.program.files.get(i)?;
    // The texts the variant was loaded from (a page given the rules as text has no file to read).
    if let Some(src) = v.texts.iter().find(|s| s.name == *name) {
        return Some(src.clone());
    }
    let bundled = name
        .strip_prefix("rules/")
        .and_then(|n| n.strip_suffix(".rules"));
    let from = Source::new("", "");
    match bundled.map(|b| BundledRules.resolve(b, &from)) {
        Some(Ok(s)) => Some(s),
        _ => crate::files::read_text(std::path::Path::new(name))
            .ok()
            .map(|t| Source::new(name.clone(), t)),
    }
}

/// Source text without the comment lines that end it (they belong to the next statement).
fn without_trailing_comments(text: &str) -> String {
    let mut lines: Vec<&str> = text.trim_end().lines().collect();
    while lines.len() > 1 && lines.last().is_some_and(|l| l.trim().starts_with('#')) {
        lines.pop();
    }
    lines.join("\n").trim_end().to_string()
}

/// Markdown to plain text: no `*` or backticks.
pub(crate) fn plain(markdown: &str) -> String {
    markdown.replace(['*', '`'], "")
}

/// Every builtin call in a block (statements and expressions), with its arguments.
pub(crate) fn calls_in(b: &ast::Block) -> Vec<(&str, &[ast::Expr])> {
    fn expr<'a>(e: &'a ast::Expr, out: &mut Vec<(&'a str, &'a [ast::Expr])>) {
        use ast::ExprKind as K;
        match &e.kind {
            K::Call(n, args) => {
                out.push((n.name.as_str(), args));
                args.iter().for_each(|a| expr(a, out));
            }
            K::List(xs) => xs.iter().for_each(|x| expr(x, out)),
            K::Table(rows) => rows.iter().for_each(|(k, v)| {
                expr(k, out);
                expr(v, out)
            }),
            K::Range(a, b) | K::Index(a, b) | K::Binary(_, a, b) => {
                expr(a, out);
                expr(b, out)
            }
            K::Field(x, _) | K::Unary(_, x) => expr(x, out),
            K::Aggregate {
                list, filter, map, ..
            } => {
                expr(list, out);
                filter.iter().chain(map.iter()).for_each(|x| expr(x, out));
            }
            _ => {}
        }
    }
    fn block<'a>(b: &'a ast::Block, out: &mut Vec<(&'a str, &'a [ast::Expr])>) {
        for s in &b.stmts {
            match &s.kind {
                ast::StmtKind::Let(_, e) => expr(e, out),
                ast::StmtKind::If(branches, otherwise) => {
                    for (c, b) in branches {
                        expr(c, out);
                        block(b, out);
                    }
                    if let Some(b) = otherwise {
                        block(b, out);
                    }
                }
                ast::StmtKind::For(_, e, b) => {
                    expr(e, out);
                    block(b, out);
                }
                ast::StmtKind::Call(n, args) => {
                    out.push((n.name.as_str(), args));
                    args.iter().for_each(|a| expr(a, out));
                }
                ast::StmtKind::Ask { who, args, .. } => {
                    expr(who, out);
                    args.iter().for_each(|a| expr(a, out));
                }
            }
        }
    }
    let mut out = Vec::new();
    block(b, &mut out);
    out
}

/// What a sentence calls each holding area that has a title (`holding NAME "Title"`): "the
/// Title"; one without a title is named by its id.
fn holding_names(p: &crate::lang::ir::Program) -> BTreeMap<String, String> {
    p.holdings
        .iter()
        .zip(&p.holding_titles)
        .filter_map(|(id, title)| {
            let title = title.as_deref()?;
            let name = match title.strip_prefix("The ") {
                Some(rest) => format!("the {rest}"),
                None if title.starts_with("the ") => title.to_string(),
                None => format!("the {title}"),
            };
            Some((id.clone(), name))
        })
        .collect()
}

/// The comment lines right above an offset, without their `#`, joined.
fn comment_above(text: &str, at: usize) -> String {
    let line_start = text
        .get(..at)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let mut lines: Vec<&str> = Vec::new();
    for line in text[..line_start].lines().rev() {
        match line.trim().strip_prefix('#') {
            Some(c) => lines.push(c.trim()),
            None => break,
        }
    }
    lines.reverse();
    lines.join(" ")
}

fn dedent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect();
    body.join("\n").trim().to_string()
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
