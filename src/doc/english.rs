//! English sentences from the syntax tree of rules, actions and setup blocks: every expression and
//! statement through the phrase tables of [`crate::lang::phrases`], so a sentence says what the rule
//! does, not what its comment claims.

use crate::lang::ast::{AggOp, BinOp, Block, Choice, Expr, ExprKind, Stmt, StmtKind, UnOp};
use crate::lang::phrases::{builtin_phrase, field_phrase, name_phrase};
use std::collections::BTreeMap;

/// What names mean while a sentence is written.
pub struct Words {
    /// Parameters: name → value in force, as text; whether it is a bool.
    pub params: BTreeMap<String, (String, bool)>,
    /// Map attributes the rules read: name → whether it is a bool.
    pub attrs: BTreeMap<String, bool>,
    /// Names bound by the trigger or the action (`player` → "you").
    pub bound: Vec<(String, String)>,
    /// `let`, `for`, choice and aggregate names in scope, innermost last.
    pub locals: Vec<String>,
    /// Holding areas declared with `holding NAME`.
    pub holdings: Vec<String>,
    /// The locals that hold lists (choices of chips, `let`s of lists), for verb agreement.
    pub plural: Vec<String>,
}

impl Words {
    pub fn new(params: BTreeMap<String, (String, bool)>, attrs: BTreeMap<String, bool>) -> Words {
        Words {
            params,
            attrs,
            bound: Vec::new(),
            locals: Vec::new(),
            plural: Vec::new(),
            holdings: Vec::new(),
        }
    }

    /// A block of statements, as clauses joined by "; ".
    pub fn block(&mut self, b: &Block) -> String {
        let depth = self.locals.len();
        let parts: Vec<String> = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.locals.truncate(depth);
        parts.join("; ")
    }

    /// A branch of an `if`: its statements joined by "and then", so that "; " still ends the `if`.
    fn branch(&mut self, b: &Block) -> String {
        let depth = self.locals.len();
        let parts: Vec<String> = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.locals.truncate(depth);
        parts.join(" and then ")
    }

    pub fn stmt(&mut self, s: &Stmt) -> String {
        match &s.kind {
            StmtKind::Let(name, e) => {
                let value = self.noun(e);
                if self.is_plural(&value) {
                    self.plural.push(name.name.clone());
                }
                self.locals.push(name.name.clone());
                format!("let *{}* be {value}", name.name)
            }
            StmtKind::If(branches, otherwise) => {
                let mut out = String::new();
                for (i, (c, b)) in branches.iter().enumerate() {
                    if i > 0 {
                        out.push_str("; otherwise ");
                    }
                    out.push_str(&format!(
                        "if {}, then {}",
                        self.pred(c, false),
                        self.block(b)
                    ));
                }
                if let Some(b) = otherwise {
                    out.push_str(&format!("; otherwise {}", self.branch(b)));
                }
                out
            }
            StmtKind::For(var, list, body) => {
                let list = self.noun(list);
                self.locals.push(var.name.clone());
                let body = self.block(body);
                self.locals.pop();
                format!("for each *{}* of {list}: {body}", var.name)
            }
            StmtKind::Call(name, args) => self.call(&name.name, args, false),
            StmtKind::Ask { who, action, args } => {
                let who = self.noun(who);
                let mut text = format!(
                    "ask {who} whether to *{}*",
                    title_case(&action.name).to_lowercase()
                );
                if !args.is_empty() {
                    let args: Vec<String> = args.iter().map(|a| self.noun(a)).collect();
                    text.push_str(&format!(" (with {})", args.join(", ")));
                }
                text
            }
        }
    }

    /// An expression read as a condition; `neg` asks for its negation.
    pub fn pred(&mut self, e: &Expr, neg: bool) -> String {
        match &e.kind {
            ExprKind::Unary(UnOp::Not, inner) => self.pred(inner, !neg),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                // De Morgan for a negated conjunction or disjunction.
                let (word, neg_parts) = match (op, neg) {
                    (BinOp::And, false) | (BinOp::Or, true) => ("and", neg),
                    _ => ("or", neg),
                };
                let side = |w: &mut Words, x: &Expr| {
                    let text = w.pred(x, neg_parts);
                    let nested = matches!(&x.kind, ExprKind::Binary(BinOp::And | BinOp::Or, ..));
                    let inner_word = match &x.kind {
                        ExprKind::Binary(BinOp::And, ..) => Some(!neg_parts),
                        ExprKind::Binary(BinOp::Or, ..) => Some(neg_parts),
                        _ => None,
                    };
                    // "a or (b and c)": parenthesise a different connective.
                    let same = inner_word == Some(word == "and");
                    if nested && !same {
                        format!("({text})")
                    } else {
                        text
                    }
                };
                let (a, b) = (side(self, a), side(self, b));
                format!("{a} {word} {b}")
            }
            ExprKind::Binary(op, a, b) if is_comparison(*op) => self.comparison(*op, a, b, neg),
            ExprKind::Field(owner, field) => {
                let owner_text = self.noun(owner);
                if let Some((pos, negp)) = field_phrase(&field.name).filter(|(_, n)| !n.is_empty())
                {
                    if !self.is_attr_only(&field.name) {
                        return fill(if neg { negp } else { pos }, &[owner_text]);
                    }
                }
                match (self.attrs.get(&field.name), neg) {
                    (Some(true), false) => format!("{owner_text} is marked `{}`", field.name),
                    (Some(true), true) => format!("{owner_text} is not marked `{}`", field.name),
                    _ => negate(format!("{} is true", self.noun(e)), neg),
                }
            }
            ExprKind::Call(name, args) => match builtin_phrase(&name.name) {
                Some((pos, negp)) if !negp.is_empty() => {
                    let args: Vec<String> = args.iter().map(|a| self.noun(a)).collect();
                    fill(if neg { negp } else { pos }, &args)
                }
                _ => negate(format!("{} holds", self.noun(e)), neg),
            },
            ExprKind::Name(n) if self.params.get(n).is_some_and(|p| p.1) => {
                format!("`{n}` is {}", if neg { "off" } else { "on" })
            }
            ExprKind::Bool(b) => (b ^ neg).to_string(),
            ExprKind::Aggregate {
                op: op @ (AggOp::Any | AggOp::All),
                var,
                list,
                filter,
                map,
            } => {
                let list = self.noun(list);
                self.locals.push(var.name.clone());
                let mut conds: Vec<String> = Vec::new();
                if let Some(f) = filter {
                    conds.push(self.pred(f, false));
                }
                let body = map.as_ref().map(|m| self.pred(m, false));
                self.locals.pop();
                let quant = match (op, neg) {
                    (AggOp::Any, false) => "for some",
                    (AggOp::Any, true) => "for no",
                    (_, false) => "for every",
                    _ => "not for every",
                };
                let mut out = format!("{quant} *{}* of {list}", var.name);
                match (conds.first(), body) {
                    (Some(f), Some(b)) => out.push_str(&format!(" such that {f}, {b}")),
                    (Some(f), None) => out.push_str(&format!(", {f}")),
                    (None, Some(b)) => out.push_str(&format!(", {b}")),
                    (None, None) => {}
                }
                out
            }
            _ => negate(format!("{} holds", self.noun(e)), neg),
        }
    }

    /// Whether a field name is a map attribute here rather than a builtin field.
    fn is_attr_only(&self, name: &str) -> bool {
        self.attrs.contains_key(name) && field_phrase(name).is_none()
    }

    fn comparison(&mut self, op: BinOp, a: &Expr, b: &Expr, neg: bool) -> String {
        let op = if neg { flip(op) } else { op };
        // `feature.kind == road` reads "the feature is a road".
        if let (ExprKind::Field(owner, f), ExprKind::Name(k)) = (&a.kind, &b.kind) {
            if f.name == "kind" && matches!(op, BinOp::Eq | BinOp::Ne) {
                if let Some(kind) = name_phrase(k) {
                    let not = if op == BinOp::Ne { " not" } else { "" };
                    return format!("{} is{not} {kind}", self.noun(owner));
                }
            }
        }
        if let Some(text) = self.aggregate_comparison(op, a, b) {
            return text;
        }
        let (a, b) = (self.noun(a), self.noun(b));
        let word = match op {
            BinOp::Eq => "is",
            BinOp::Ne => "is not",
            BinOp::Lt => "is less than",
            BinOp::Le => "is at most",
            BinOp::Gt => "is more than",
            _ => "is at least",
        };
        format!("{a} {word} {b}")
    }

    /// `sum(c in L: c.value) == 2`, `distinct(c in L: c.colour) == 1`, `count(…) > 0`, `count(…) == 0`.
    fn aggregate_comparison(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Option<String> {
        let ExprKind::Aggregate {
            op: agg,
            var,
            list,
            filter,
            map,
        } = &a.kind
        else {
            return None;
        };
        let ExprKind::Int(n) = b.kind else {
            return None;
        };
        let field_of_var = |m: &Option<Box<Expr>>| match m.as_deref().map(|m| &m.kind) {
            Some(ExprKind::Field(owner, f)) if matches!(&owner.kind, ExprKind::Name(v) if *v == var.name) => {
                Some(f.name.clone())
            }
            _ => None,
        };
        match (agg, op, n, filter) {
            (AggOp::Sum, BinOp::Eq, _, None) if field_of_var(map).as_deref() == Some("value") => {
                Some(format!(
                    "{} are worth exactly {n} together",
                    self.noun(list)
                ))
            }
            (AggOp::Distinct, BinOp::Eq, 1, None) => {
                let f = field_of_var(map)?;
                Some(format!("{} are all of one {f}", self.noun(list)))
            }
            (AggOp::Count, BinOp::Gt, 0, _) | (AggOp::Count, BinOp::Ge, 1, _) => {
                let list = self.noun(list);
                Some(match filter {
                    None => format!("{list} are not empty"),
                    Some(f) => {
                        self.locals.push(var.name.clone());
                        let f = self.pred(f, false);
                        self.locals.pop();
                        format!("for some *{}* of {list}, {f}", var.name)
                    }
                })
            }
            (AggOp::Count, BinOp::Eq, 0, _) => {
                let list = self.noun(list);
                Some(match filter {
                    None => format!("{list} are empty"),
                    Some(f) => {
                        self.locals.push(var.name.clone());
                        let f = self.pred(f, false);
                        self.locals.pop();
                        format!("for no *{}* of {list}, {f}", var.name)
                    }
                })
            }
            _ => None,
        }
    }

    /// An expression read as a thing (a number, a list, a player …).
    pub fn noun(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(i) => i.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Str(s) => format!("`{s}`"),
            ExprKind::Name(n) => self.name(n),
            ExprKind::List(items) => {
                let items: Vec<String> = items.iter().map(|i| self.noun(i)).collect();
                match items.len() {
                    0 => "nothing".into(),
                    _ => items.join(", "),
                }
            }
            ExprKind::Table(rows) => {
                let rows: Vec<String> = rows
                    .iter()
                    .map(|(k, v)| format!("{} → {}", self.noun(k), self.noun(v)))
                    .collect();
                format!("{{{}}}", rows.join(", "))
            }
            ExprKind::Range(a, b) => format!("{} to {}", self.noun(a), self.noun(b)),
            ExprKind::Field(owner, field) => {
                let owner = self.noun(owner);
                if !self.is_attr_only(&field.name) {
                    if let Some((p, _)) = field_phrase(&field.name) {
                        return fill(p, &[owner]);
                    }
                }
                format!("the `{}` of {owner}", field.name)
            }
            ExprKind::Index(t, i) => format!("the value in {} for {}", self.noun(t), self.noun(i)),
            ExprKind::Call(name, args) => self.call(&name.name, args, true),
            ExprKind::Unary(UnOp::Neg, x) => format!("−{}", self.operand(x, 6)),
            ExprKind::Unary(UnOp::Not, _) => self.pred(e, false),
            ExprKind::Binary(op, a, b) if is_arithmetic(*op) => {
                let p = precedence(*op);
                let (a, b) = (self.operand(a, p), self.operand(b, p + 1));
                let sym = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "−",
                    BinOp::Mul => "×",
                    BinOp::Div => "÷",
                    _ => "mod",
                };
                format!("{a} {sym} {b}")
            }
            ExprKind::Binary(..) => self.pred(e, false),
            ExprKind::Aggregate {
                op,
                var,
                list,
                filter,
                map,
            } => self.aggregate(*op, &var.name, list, filter.as_deref(), map.as_deref()),
        }
    }

    /// An operand of an arithmetic operator, in parentheses when it binds less tightly.
    fn operand(&mut self, e: &Expr, min: u8) -> String {
        let text = self.noun(e);
        match &e.kind {
            ExprKind::Binary(op, ..) if precedence(*op) < min => format!("({text})"),
            _ => text,
        }
    }

    fn aggregate(
        &mut self,
        op: AggOp,
        var: &str,
        list: &Expr,
        filter: Option<&Expr>,
        map: Option<&Expr>,
    ) -> String {
        let distinct_field = match map.map(|m| &m.kind) {
            Some(ExprKind::Field(owner, f)) if filter.is_none() => match &owner.kind {
                ExprKind::Name(v) if v == var => Some(f.name.clone()),
                _ => None,
            },
            _ => None,
        };
        let list = self.noun(list);
        self.locals.push(var.to_string());
        let filter = filter.map(|f| self.pred(f, false));
        let map = map.map(|m| {
            if matches!(op, AggOp::Any | AggOp::All) {
                self.pred(m, false)
            } else {
                self.noun(m)
            }
        });
        self.locals.pop();
        let over = match &filter {
            Some(f) => format!("*{var}* of {list} such that {f}"),
            None => format!("*{var}* of {list}"),
        };
        let m = map.unwrap_or_else(|| format!("*{var}*"));
        match op {
            AggOp::Count => match filter {
                Some(f) => format!("the number of *{var}* of {list} such that {f}"),
                None => format!("the number of {list}"),
            },
            AggOp::Sum => match distinct_field.as_deref() {
                Some(f) => format!("the total {f} of {list}"),
                None => format!("the total of {m} for each {over}"),
            },
            AggOp::Any => format!("whether for some {over}, {m}"),
            AggOp::All => format!("whether for every {over}, {m}"),
            AggOp::Min => format!("the least {m} for {over}"),
            AggOp::Max => format!("the greatest {m} for {over}"),
            AggOp::Distinct => match distinct_field.as_deref() {
                Some(f) => format!("the number of different {f}s among {list}"),
                None => format!("the number of different {m} for {over}"),
            },
            AggOp::Sort => format!("the {over}, in order of {m}"),
            AggOp::Collect if m == format!("*{var}*") => format!("the {over}"),
            AggOp::Collect => format!("{m} for each {over}"),
        }
    }

    fn name(&self, n: &str) -> String {
        if self.locals.iter().any(|l| l == n) {
            return format!("*{n}*");
        }
        if let Some((_, phrase)) = self.bound.iter().rev().find(|(b, _)| b == n) {
            return phrase.clone();
        }
        if self.holdings.iter().any(|h| h == n) {
            return format!("the holding area `{n}`");
        }
        if let Some((value, _)) = self.params.get(n) {
            return if *value == format!("`{n}`") {
                value.clone()
            } else if value.starts_with('`') {
                format!("`{n}` (now {value})")
            } else {
                format!("{value} (`{n}`)")
            };
        }
        match name_phrase(n) {
            Some(p) => p.to_string(),
            None => n.to_string(),
        }
    }

    /// A builtin call; an effect reads as a clause, a query as a noun (or, for a bool, a clause).
    fn call(&mut self, name: &str, args: &[Expr], _as_noun: bool) -> String {
        let texts: Vec<String> = args.iter().map(|a| self.noun(a)).collect();
        if name == "len" {
            if let Some(list) = texts.first() {
                return format!(
                    "the number of {}",
                    list.strip_prefix("the ").unwrap_or(list)
                );
            }
        }
        match builtin_phrase(name) {
            Some((p, _)) => {
                let plural = texts.first().is_some_and(|t| self.is_plural(t));
                fill_agreeing(p, &texts, plural)
            }
            None => format!("{name}({})", texts.join(", ")),
        }
    }

    /// A choice of an action: "you may choose *pay*, 1 to 2 chips of the chips in your hand, such that …".
    pub fn choice(&mut self, c: &Choice) -> String {
        let from = self.noun(&c.from);
        let what = if c.chips {
            let size = match c.size.as_ref().map(|s| &s.kind) {
                Some(ExprKind::Range(a, b)) if self.noun(a) == self.noun(b) => {
                    format!("{} ", self.noun(a))
                }
                Some(_) => format!("{} ", self.noun(c.size.as_ref().expect("matched"))),
                None => "any ".into(),
            };
            format!("*{}*, {size}chips from {from}", c.name.name)
        } else {
            format!("*{}* from {from}", c.name.name)
        };
        self.locals.push(c.name.name.clone());
        if c.chips {
            self.plural.push(c.name.name.clone());
        }
        match &c.filter {
            Some(f) => format!("{what}, such that {}", self.pred(f, false)),
            None => what,
        }
    }
}

fn negate(text: String, neg: bool) -> String {
    if neg {
        format!("not ({text})")
    } else {
        text
    }
}

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

fn is_arithmetic(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
    )
}

fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::Add | BinOp::Sub => 4,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 5,
        _ => 3,
    }
}

fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        o => o,
    }
}

/// Fills a phrase template (see [`crate::lang::phrases`]).
pub fn fill(template: &str, args: &[String]) -> String {
    let plural = args.first().is_some_and(|a| is_plural(a));
    fill_agreeing(template, args, plural)
}

/// Fills a template, the verb agreeing with argument 0 as `plural` says.
pub fn fill_agreeing(template: &str, args: &[String], plural: bool) -> String {
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("?");
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find(['{', '[']) {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        if let Some(after) = tail.strip_prefix("[s]") {
            if !plural {
                out.push('s');
            }
            rest = after;
            continue;
        }
        if let Some(after) = tail.strip_prefix("[es]") {
            if !plural {
                out.push_str("es");
            }
            rest = after;
            continue;
        }
        let Some(close) = tail.find(['}']) else {
            out.push_str(tail);
            return out;
        };
        let inner = &tail[1..close];
        rest = &tail[close + 1..];
        let digits: String = inner.chars().take_while(|c| c.is_ascii_digit()).collect();
        let Ok(i) = digits.parse::<usize>() else {
            out.push_str(&tail[..=close]);
            continue;
        };
        let spec = &inner[digits.len()..];
        if spec == "'s" {
            out.push_str(&possessive(arg(i)));
        } else if let Some(text) = spec.strip_prefix('?') {
            match arg(i) {
                "true" => out.push_str(text),
                "false" => {}
                other => out.push_str(&format!(" ({} if {other})", text.trim_start_matches(", "))),
            }
        } else {
            out.push_str(arg(i));
        }
    }
    out.push_str(rest);
    out
}

fn is_plural(subject: &str) -> bool {
    subject == "you"
        || [
            "the players",
            "the chips",
            "the followers",
            "the squares",
            "the *",
        ]
        .iter()
        .any(|p| subject.starts_with(p))
}

impl Words {
    /// Whether a subject takes a plural verb: "you", a list, a local holding a list.
    fn is_plural(&self, subject: &str) -> bool {
        is_plural(subject) || self.plural.iter().any(|p| subject == format!("*{p}*"))
    }
}

fn possessive(noun: &str) -> String {
    match noun {
        "you" => "your".into(),
        n if n.ends_with('*') => format!("{n}'s"),
        n if n.ends_with('s') => format!("{n}'"),
        n => format!("{n}'s"),
    }
}

/// `sell_abroad` → "Sell abroad".
pub fn title_case(ident: &str) -> String {
    let words = ident.replace('_', " ");
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Singular nouns after a literal 1: "1 chip", "1 follower".
pub fn tidy(sentence: &str) -> String {
    sentence
        .replace(" 1 chips", " 1 chip")
        .replace(" 1 followers", " 1 follower")
        .replace(" 1 tiles", " 1 tile")
}
