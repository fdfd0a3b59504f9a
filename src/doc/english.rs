//! English sentences from the syntax tree of rules, actions and setup blocks: every expression and
//! statement through the phrase tables of [`crate::lang::phrases`], so a sentence says what the rule
//! does, not what its comment claims.

use crate::lang::ast::{AggOp, BinOp, Block, Choice, Expr, ExprKind, Stmt, StmtKind, UnOp};
use crate::lang::phrases::{builtin_phrase, field_phrase, name_phrase};
use std::collections::BTreeMap;

/// What names mean while a sentence is written.
pub(crate) struct Words {
    /// Parameters: name → value in force, as text; whether it is a bool.
    pub(crate) params: BTreeMap<String, (String, bool)>,
    /// Map attributes the rules read: name → whether it is a bool.
    pub(crate) attrs: BTreeMap<String, bool>,
    /// Names bound by the trigger or the action (`player` → "you").
    pub(crate) bound: Vec<(String, String)>,
    /// `let`, `for`, choice and aggregate names in scope, innermost last.
    pub(crate) locals: Vec<String>,
    /// Holding areas declared with `holding NAME`.
    pub(crate) holdings: Vec<String>,
    /// States the rules keep (`state NAME …`): name → whether it is a flag.
    pub(crate) states: BTreeMap<String, bool>,
    /// The locals that hold lists (choices of chips, `let`s of lists), for verb agreement.
    pub(crate) plural: Vec<String>,
    /// Choices of several chips named by a singular noun (`choose lot: chips …`): read "the *lot*
    /// chips", so the verb agrees ("the *lot* chips are worth 2", not "*lot* are").
    pub(crate) chip_lists: Vec<String>,
    /// Parameters' values in force, for folding constant parts ("0 (30 − `scatter_count`)").
    pub(crate) values: BTreeMap<String, serde_json::Value>,
    /// Holding areas' names for people ("the Island"), by id.
    pub(crate) holding_names: BTreeMap<String, String>,
    /// The kind of the feature a `scored` rule is about, when its condition says ("road").
    pub(crate) feature_kind: Option<String>,
    /// `current_player` reads "you" (the sentence's player is the current player).
    pub(crate) you_current: bool,
    /// Whether the sentence has said that tied players score in full.
    pub(crate) ties_said: bool,
    /// Notes on folded parameters already given in this sentence.
    pub(crate) notes_said: Vec<String>,
    /// Names a collected list's variable is read as (the outer quantifier's letter), innermost last.
    pub(crate) rename: Vec<(String, String)>,
}

impl Words {
    pub(crate) fn new(
        params: BTreeMap<String, (String, bool)>,
        attrs: BTreeMap<String, bool>,
    ) -> Words {
        Words {
            params,
            attrs,
            bound: Vec::new(),
            locals: Vec::new(),
            plural: Vec::new(),
            chip_lists: Vec::new(),
            holdings: Vec::new(),
            states: BTreeMap::new(),
            values: BTreeMap::new(),
            holding_names: BTreeMap::new(),
            feature_kind: None,
            you_current: false,
            ties_said: false,
            rename: Vec::new(),
            notes_said: Vec::new(),
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

    pub(crate) fn stmt(&mut self, s: &Stmt) -> String {
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
                match singular(&list) {
                    Some((one, rest)) => format!("for each {one} *{}*{rest}: {body}", var.name),
                    None => format!("for each *{}* of {list}: {body}", var.name),
                }
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
    pub(crate) fn pred(&mut self, e: &Expr, neg: bool) -> String {
        match &e.kind {
            ExprKind::Unary(UnOp::Not, inner) => self.pred(inner, !neg),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), ..) => self.connective(e, *op, neg),
            ExprKind::Binary(op, a, b) if is_comparison(*op) => self.comparison(*op, a, b, neg),
            ExprKind::Name(n) | ExprKind::Field(_, crate::lang::ast::Ident { name: n, .. })
                if self.is_state(n) =>
            {
                let not = if neg { "not " } else { "" };
                format!("{} is {not}set", self.noun(e))
            }
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
            ExprKind::If(c, a, b) => match self.const_bool(c) {
                Some(v) => {
                    let chosen = self.pred(if v { a } else { b }, neg);
                    format!("{chosen} ({})", self.pred(c, !v))
                }
                None => {
                    let (a, c, b) = (self.pred(a, neg), self.pred(c, false), self.pred(b, neg));
                    format!("{a} if {c}, and otherwise {b}")
                }
            },
            ExprKind::Aggregate {
                op: op @ (AggOp::Any | AggOp::All),
                var,
                list,
                filter,
                map,
            } => {
                let quant = match (op, neg) {
                    (AggOp::Any, false) => "some",
                    (AggOp::Any, true) => "no",
                    (_, false) => "every",
                    _ => "not every",
                };
                let conds: Vec<&Expr> = filter.iter().chain(map.iter()).map(|b| &**b).collect();
                self.quantified(quant, &var.name, list, &conds)
            }
            _ => negate(format!("{} holds", self.noun(e)), neg),
        }
    }

    /// `a and b and c` (or `or`): constant parts (parameters only) folded away, the rest joined; three
    /// or more parts become a numbered list.
    fn connective(&mut self, e: &Expr, op: BinOp, neg: bool) -> String {
        let mut parts = Vec::new();
        flatten(e, op, &mut parts);
        // De Morgan for a negated conjunction or disjunction.
        let and = (op == BinOp::And) != neg;
        let mut kept: Vec<&Expr> = Vec::new();
        let mut folded: Vec<String> = Vec::new();
        let mut dropped: Vec<String> = Vec::new();
        for x in parts {
            match self.const_bool(x) {
                Some(v) => {
                    let v = v != neg;
                    if v != and {
                        // A false part of a conjunction (a true one of a disjunction) decides it.
                        let why: Vec<String> = param_names(x)
                            .into_iter()
                            .map(|n| self.param_state(&n))
                            .collect();
                        let word = if v { "always" } else { "never" };
                        return format!("{word} (as {})", why.join(" and "));
                    }
                    let states: Vec<String> = param_names(x)
                        .into_iter()
                        .map(|n| self.param_state(&n))
                        .collect();
                    // A part of a conjunction that a parameter makes true (`p or not s.island`
                    // with `p` on) drops a condition: say which one no longer applies, with the
                    // parameter, after the list (not on its last item, which it does not explain).
                    let mut inner = Vec::new();
                    if and && !neg {
                        flatten(x, BinOp::Or, &mut inner);
                    }
                    let rest: Vec<&Expr> = inner
                        .into_iter()
                        .filter(|p| self.const_bool(p).is_none())
                        .collect();
                    if rest.len() == 1 && inner_or(x) {
                        dropped.push(format!(
                            "whether or not {} (as {})",
                            self.pred(rest[0], true),
                            states.join(" and ")
                        ));
                        self.notes_said.extend(states);
                    } else {
                        folded.extend(states);
                    }
                }
                None => kept.push(x),
            }
        }
        let texts: Vec<String> = kept
            .iter()
            .map(|x| {
                let text = self.pred(x, neg);
                let inner_and = match &x.kind {
                    ExprKind::Binary(BinOp::And, ..) => Some(!neg),
                    ExprKind::Binary(BinOp::Or, ..) => Some(neg),
                    _ => None,
                };
                let inner_word = if inner_and == Some(true) {
                    " and "
                } else {
                    " or "
                };
                match inner_and {
                    Some(i) if i != and && !text.contains("(1)") && text.contains(inner_word) => {
                        format!("({text})")
                    }
                    _ => text,
                }
            })
            .collect();
        let word = if and { "and" } else { "or" };
        let mut out = if texts.len() >= 3 && texts.iter().all(|t| !t.contains("(1)")) {
            numbered(&texts, and)
        } else {
            shared_subject(&texts, word)
        };
        folded.dedup();
        if out.is_empty() && !folded.is_empty() {
            // Only parameters switch it: the switch is the condition.
            self.notes_said.extend(folded.iter().cloned());
            out = folded.join(" and ");
        }
        folded.retain(|n| !self.notes_said.contains(n));
        self.notes_said.extend(folded.iter().cloned());
        if !folded.is_empty() && !out.is_empty() {
            out.push_str(&format!(" (as {})", folded.join(" and ")));
        }
        if !dropped.is_empty() && !out.is_empty() {
            out.push_str(&format!("; {}", dropped.join("; ")));
        }
        out
    }

    /// The parameters that switch a rule, from the parts of its condition made of parameters only
    /// ("`takeover` is on"), as the page's `when` of a rule says them.
    pub(crate) fn switches(&self, parts: &[&Expr]) -> String {
        let mut states: Vec<String> = Vec::new();
        for x in parts {
            if self.const_bool(x).is_some() {
                for n in param_names(x) {
                    let s = self.param_state(&n);
                    if !states.contains(&s) {
                        states.push(s);
                    }
                }
            }
        }
        states.join(" and ")
    }

    /// "`scatter_islands` is off", "`trade_match` is `colour_value`": a parameter as the sentence reads it.
    fn param_state(&self, name: &str) -> String {
        match self.values.get(name) {
            Some(serde_json::Value::Bool(b)) => {
                format!("`{name}` is {}", if *b { "on" } else { "off" })
            }
            Some(serde_json::Value::String(v)) => format!("`{name}` is `{v}`"),
            Some(v) => format!("`{name}` is {v}"),
            None => format!("`{name}`"),
        }
    }

    /// The texts of a list of conditions that must all hold, constant parts (parameters only) folded:
    /// a true one is dropped, with a note on the parameter on the last text; a false one makes the
    /// whole "never".
    pub(crate) fn conds(&mut self, parts: &[&Expr]) -> Vec<String> {
        let mut kept: Vec<&Expr> = Vec::new();
        let mut folded: Vec<String> = Vec::new();
        for x in parts {
            match self.const_bool(x) {
                Some(true) => {
                    folded.extend(param_names(x).into_iter().map(|n| self.param_state(&n)))
                }
                Some(false) => {
                    let why: Vec<String> = param_names(x)
                        .into_iter()
                        .map(|n| self.param_state(&n))
                        .collect();
                    return vec![format!("never (as {})", why.join(" and "))];
                }
                None => kept.push(x),
            }
        }
        let mut texts: Vec<String> = kept.iter().map(|x| self.pred(x, false)).collect();
        folded.dedup();
        if texts.is_empty() && !folded.is_empty() {
            // Only parameters switch it (`when takeover`): the switch is the condition.
            self.notes_said.extend(folded.iter().cloned());
            return vec![folded.join(" and ")];
        }
        folded.retain(|n| !self.notes_said.contains(n));
        self.notes_said.extend(folded.iter().cloned());
        if !folded.is_empty() {
            if let Some(last) = texts.last_mut() {
                last.push_str(&format!(" (as {})", folded.join(" and ")));
            }
        }
        texts
    }

    /// Whether a name is a parameter here (not shadowed by a local or a bound name).
    fn is_param(&self, n: &str) -> bool {
        !self.locals.iter().any(|l| l == n)
            && !self.bound.iter().any(|(b, _)| b == n)
            && self.values.contains_key(n)
    }

    /// The value of an expression made of numbers and parameters only.
    pub(crate) fn const_int(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(i) => Some(*i),
            ExprKind::Name(n) if self.is_param(n) => self.values.get(n)?.as_i64(),
            ExprKind::Unary(UnOp::Neg, x) => self.const_int(x)?.checked_neg(),
            ExprKind::Binary(op, a, b) if is_arithmetic(*op) => {
                let (a, b) = (self.const_int(a)?, self.const_int(b)?);
                match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div => a.checked_div(b),
                    _ => a.checked_rem(b),
                }
            }
            _ => None,
        }
    }

    /// The value of a condition made of constants and parameters only.
    fn const_bool(&self, e: &Expr) -> Option<bool> {
        match &e.kind {
            ExprKind::Bool(b) => Some(*b),
            ExprKind::Name(n) if self.is_param(n) => self.values.get(n)?.as_bool(),
            ExprKind::Unary(UnOp::Not, x) => Some(!self.const_bool(x)?),
            ExprKind::Binary(BinOp::And, a, b) => match (self.const_bool(a), self.const_bool(b)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            ExprKind::Binary(BinOp::Or, a, b) => match (self.const_bool(a), self.const_bool(b)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
            ExprKind::Binary(op, a, b) if is_comparison(*op) => {
                let ord = match (self.const_int(a), self.const_int(b)) {
                    (Some(x), Some(y)) => x.cmp(&y),
                    _ => {
                        let (x, y) = (self.const_str(a)?, self.const_str(b)?);
                        if !matches!(op, BinOp::Eq | BinOp::Ne) {
                            return None;
                        }
                        x.cmp(&y)
                    }
                };
                use std::cmp::Ordering::*;
                Some(match op {
                    BinOp::Eq => ord == Equal,
                    BinOp::Ne => ord != Equal,
                    BinOp::Lt => ord == Less,
                    BinOp::Le => ord != Greater,
                    BinOp::Gt => ord == Greater,
                    _ => ord != Less,
                })
            }
            _ => None,
        }
    }

    fn const_str(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Str(s) => Some(s.clone()),
            ExprKind::Name(n) if self.is_param(n) => {
                self.values.get(n)?.as_str().map(str::to_string)
            }
            _ => None,
        }
    }

    /// "some chip in the square lies face down", "no square next to *s* is part of a large city",
    /// "some square *s* whose `band` is … such that …": a quantifier over a list, the variable named
    /// only where the condition needs it. A list collected with a condition (`[b in L where F]`) is
    /// read as `L` with `F` added, under the quantifier's letter.
    fn quantified(&mut self, quant: &str, var: &str, list: &Expr, conds: &[&Expr]) -> String {
        let mut conds: Vec<&Expr> = conds.to_vec();
        let mut list = list;
        let mut renamed = false;
        if let ExprKind::Aggregate {
            op: AggOp::Collect,
            var: inner,
            list: inner_list,
            filter: Some(f),
            map: None,
        } = &list.kind
        {
            list = inner_list;
            conds.insert(0, f);
            self.rename.push((inner.name.clone(), var.to_string()));
            renamed = true;
        }
        let list_text = self.noun(list);
        self.locals.push(var.to_string());
        let mut flat = Vec::new();
        for c in &conds {
            flatten(c, BinOp::And, &mut flat);
        }
        let texts: Vec<String> = self.conds(&flat);
        self.locals.pop();
        if renamed {
            self.rename.pop();
        }
        let mark = format!("*{var}*");
        let cond = if texts.len() >= 3 {
            numbered(&texts, true)
        } else {
            texts.join(" and ")
        };
        match singular(&list_text) {
            Some((one, rest)) => {
                let subject = format!("{mark} ");
                // "the colour of *c* is X" reads "some chip … has colour X".
                let field_is = cond
                    .strip_prefix("the ")
                    .and_then(|c| c.split_once(&format!(" of {mark} is ")))
                    .filter(|(f, v)| !f.contains(' ') && !v.contains(&mark));
                if texts.len() == 1
                    && cond.starts_with(&subject)
                    && cond.matches(&mark).count() == 1
                {
                    format!("{quant} {one}{rest} {}", &cond[subject.len()..])
                } else if let (1, Some((f, v))) = (texts.len(), field_is) {
                    if quant == "some" {
                        format!("the {f} of some {one}{rest} is {v}")
                    } else {
                        format!("{quant} {one}{rest} has a {f} equal to {v}")
                    }
                } else if cond.is_empty() {
                    format!("{quant} {one}{rest}")
                } else {
                    // "some follower *f* of yours on the board is such that …"
                    let named = match one.split_once(' ') {
                        Some((noun, more)) => format!("{noun} {mark} {more}"),
                        None => format!("{one} {mark}"),
                    };
                    format!("{quant} {named}{rest} is such that {cond}")
                }
            }
            None => format!("for {quant} {mark} of {list_text}, {cond}"),
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
        // `len(L) == 0` reads "there are no chips on *s*"; `len(L) > 0` "there are chips in your hand".
        if let (ExprKind::Call(f, args), ExprKind::Int(n)) = (&a.kind, &b.kind) {
            if f.name == "len" && args.len() == 1 {
                let list = self.noun(&args[0]);
                if let Some(rest) = list.strip_prefix("the ") {
                    match (op, n) {
                        (BinOp::Eq, 0) | (BinOp::Le, 0) | (BinOp::Lt, 1) => {
                            return format!("there are no {rest}")
                        }
                        (BinOp::Gt, 0) | (BinOp::Ne, 0) | (BinOp::Ge, 1) => {
                            return format!("there are {rest}")
                        }
                        _ => {}
                    }
                }
            }
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
                Some(match filter {
                    None => format!("{} not empty", are(&self.noun(list))),
                    Some(f) => self.quantified("some", &var.name, list, &[f]),
                })
            }
            (
                AggOp::Count,
                BinOp::Ge | BinOp::Gt | BinOp::Eq | BinOp::Le | BinOp::Lt,
                _,
                Some(f),
            ) if n > 0 => {
                let howmany = match op {
                    BinOp::Ge => format!("at least {n}"),
                    BinOp::Gt => format!("more than {n}"),
                    BinOp::Eq => format!("exactly {n}"),
                    BinOp::Le => format!("at most {n}"),
                    _ => format!("fewer than {n}"),
                };
                let list_text = self.noun(list);
                let (one, rest) = singular(&list_text)?;
                // `c.value == 1` reads "have value 1".
                if let ExprKind::Binary(BinOp::Eq, l, r) = &f.kind {
                    if let ExprKind::Field(o, field) = &l.kind {
                        if matches!(&o.kind, ExprKind::Name(v) if *v == var.name) {
                            self.locals.push(var.name.clone());
                            let value = self.noun(r);
                            self.locals.pop();
                            if !value.contains(&format!("*{}*", var.name)) {
                                return Some(format!(
                                    "{howmany} {one}s{rest} have {} {value}",
                                    field.name.replace('_', " ")
                                ));
                            }
                        }
                    }
                }
                self.locals.push(var.name.clone());
                let f = self.pred(f, false);
                self.locals.pop();
                Some(format!(
                    "{howmany} {one}s *{}*{rest} are such that {f}",
                    var.name
                ))
            }
            (AggOp::Distinct, BinOp::Eq | BinOp::Ge, _, None) if n > 1 => {
                let f = field_of_var(map)?;
                let least = if op == BinOp::Ge { "at least " } else { "" };
                Some(format!(
                    "{} of {least}{n} different {f}s",
                    are(&self.noun(list))
                ))
            }
            (AggOp::Count, BinOp::Eq, 0, _) => Some(match filter {
                None => format!("{} empty", are(&self.noun(list))),
                Some(f) => self.quantified("no", &var.name, list, &[f]),
            }),
            _ => None,
        }
    }

    /// An expression read as a thing (a number, a list, a player …).
    pub(crate) fn noun(&mut self, e: &Expr) -> String {
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
            ExprKind::Field(owner, field) if self.is_state(&field.name) => {
                let owner = self.noun(owner);
                fill(&format!("{{0's}} `{}`", field.name), &[owner])
            }
            ExprKind::Field(owner, field) => self.field_noun(owner, &field.name),
            ExprKind::Index(t, i) => self.index_noun(t, i),
            ExprKind::Call(name, args) => self.call(&name.name, args, true),
            ExprKind::Unary(UnOp::Neg, x) => format!("−{}", self.operand(x, 6)),
            ExprKind::Unary(UnOp::Not, _) => self.pred(e, false),
            ExprKind::Binary(op, a, b) if is_arithmetic(*op) => self.arithmetic_noun(e, *op, a, b),
            ExprKind::Binary(..) => self.pred(e, false),
            ExprKind::If(c, a, b) => match self.const_bool(c) {
                Some(v) => {
                    let chosen = self.noun(if v { a } else { b });
                    format!("{chosen} ({})", self.pred(c, !v))
                }
                None => {
                    let (a, c, b) = (self.noun(a), self.pred(c, false), self.noun(b));
                    format!("{a} if {c}, else {b}")
                }
            },
            ExprKind::Aggregate {
                op,
                var,
                list,
                filter,
                map,
            } => self.aggregate(*op, &var.name, list, filter.as_deref(), map.as_deref()),
        }
    }

    /// `owner.name` read as a thing (a field or a square's mark).
    fn field_noun(&mut self, owner: &Expr, name: &str) -> String {
        let is_feature = matches!(&owner.kind, ExprKind::Name(n) if n == "feature");
        let owner = self.noun(owner);
        if is_feature && name == "tiles" && self.feature_kind.as_deref() == Some("monastery") {
            return format!("the number of tiles in and around {owner} (its own tile and each filled square of the 8 around it)");
        }
        if !self.is_attr_only(name) {
            if let Some((p, _)) = field_phrase(name) {
                return fill(p, &[owner]);
            }
        }
        // `x.square.band` reads "the `band` mark of *x*'s square".
        match owner.strip_prefix("the square of ") {
            Some(of) if !of.contains(' ') => {
                format!("the `{}` mark of {} square", name, possessive(of))
            }
            _ => format!("the `{}` of {owner}", name),
        }
    }

    /// `t[i]` read as a thing.
    fn index_noun(&mut self, t: &Expr, i: &Expr) -> String {
        // A table parameter shows its entries: "the value in `trade` (1 → 1, 2 → 3, …)".
        let entries = match (&t.kind, self.values.get(&self.noun_name(t))) {
            (ExprKind::Name(_), Some(serde_json::Value::Object(m))) => {
                let rows: Vec<String> = m.iter().map(|(k, v)| format!("{k} → {v}")).collect();
                format!(" ({})", rows.join(", "))
            }
            _ => String::new(),
        };
        format!(
            "the value in {}{entries} for {}",
            self.noun(t),
            self.noun(i)
        )
    }

    /// `a OP b` for an arithmetic `op`, read as a thing (its value when it is a constant).
    fn arithmetic_noun(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> String {
        if let Some(n) = self.const_int(e) {
            let formula = self.formula(e);
            return if formula.contains('`') {
                format!("{n} ({formula})")
            } else {
                n.to_string()
            };
        }
        let p = precedence(op);
        let (a, b) = (self.operand(a, p), self.operand(b, p + 1));
        let sym = op_symbol(op);
        if op == BinOp::Div {
            format!("{a} {sym} {b} (rounded down)")
        } else {
            format!("{a} {sym} {b}")
        }
    }

    /// A constant expression as written, parameters in backticks: "30 − `scatter_count`".
    fn formula(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(i) => i.to_string(),
            ExprKind::Name(n) => format!("`{n}`"),
            ExprKind::Unary(UnOp::Neg, x) => format!("−{}", self.formula(x)),
            ExprKind::Binary(op, a, b) => {
                let p = precedence(*op);
                let side = |x: &Expr, min: u8| match &x.kind {
                    ExprKind::Binary(o, ..) if precedence(*o) < min => {
                        format!("({})", self.formula(x))
                    }
                    _ => self.formula(x),
                };
                format!("{} {} {}", side(a, p), op_symbol(*op), side(b, p + 1))
            }
            _ => String::new(),
        }
    }

    /// An operand of an arithmetic operator, in parentheses when it binds less tightly.
    fn operand(&mut self, e: &Expr, min: u8) -> String {
        let text = self.noun(e);
        match &e.kind {
            ExprKind::Binary(op, ..) if precedence(*op) < min => format!("({text})"),
            ExprKind::If(..) => format!("({text})"),
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
        let filter_expr = filter;
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
        // `[f in L where f.owner == X]` over followers reads "X's followers …".
        if let (AggOp::Collect, None, Some(ExprKind::Binary(BinOp::Eq, l, r))) =
            (op, map.as_ref(), filter_expr.map(|f| &f.kind))
        {
            if matches!(&l.kind, ExprKind::Field(o, f) if f.name == "owner" && matches!(&o.kind, ExprKind::Name(v) if v == var))
            {
                if let Some(rest) = list.strip_prefix("the followers") {
                    self.locals.push(var.to_string());
                    let owner = self.noun(r);
                    self.locals.pop();
                    if !owner.contains(&format!("*{var}*")) {
                        return format!("{} followers{rest}", possessive(&owner));
                    }
                }
            }
        }
        let over = match (&filter, singular(&list)) {
            (Some(f), Some((one, rest))) => format!("{one}s *{var}*{rest} such that {f}"),
            (Some(f), None) if list.starts_with('*') => {
                format!("ones *{var}* of {list} such that {f}")
            }
            // "the *pay* chips" (a choice of chips): "the chips *c* of *pay* such that …".
            (Some(f), None) if list.starts_with("the *") && list.ends_with("* chips") => {
                let name = &list["the ".len()..list.len() - " chips".len()];
                format!("chips *{var}* of {name} such that {f}")
            }
            (Some(f), None) => format!("*{var}* of {list} such that {f}"),
            (None, _) => format!("*{var}* of {list}"),
        };
        let m = map.unwrap_or_else(|| format!("*{var}*"));
        match op {
            AggOp::Count => match filter {
                Some(_) => format!("the number of {over}"),
                None => format!(
                    "the number of {}",
                    list.strip_prefix("the ").unwrap_or(&list)
                ),
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

    /// The parameter an expression names, when it is one (not shadowed); empty otherwise.
    fn noun_name(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Name(n) if self.is_param(n) => n.clone(),
            _ => String::new(),
        }
    }

    fn name(&self, n: &str) -> String {
        if let Some((_, to)) = self.rename.iter().rev().find(|(from, _)| from == n) {
            return format!("*{to}*");
        }
        if self.chip_lists.iter().any(|l| l == n) {
            return format!("the *{n}* chips");
        }
        if self.locals.iter().any(|l| l == n) {
            return format!("*{n}*");
        }
        if let Some((_, phrase)) = self.bound.iter().rev().find(|(b, _)| b == n) {
            return phrase.clone();
        }
        if self.is_state(n) {
            return format!("the `{n}`");
        }
        if self.holdings.iter().any(|h| h == n) {
            return match self.holding_names.get(n) {
                Some(title) => title.clone(),
                None => format!("the holding area `{n}`"),
            };
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

    /// Whether `n` names a state the rules keep (not shadowed by a local).
    fn is_state(&self, n: &str) -> bool {
        self.states.contains_key(n)
            && !self.locals.iter().any(|l| l == n)
            && !self.bound.iter().any(|(b, _)| b == n)
    }

    /// A builtin call; an effect reads as a clause, a query as a noun (or, for a bool, a clause).
    fn call(&mut self, name: &str, args: &[Expr], _as_noun: bool) -> String {
        if name == "current_player" && self.you_current {
            return "you".into();
        }
        if name == "draw" && args.len() == 4 {
            if let Some(n) = self.const_int(&args[0]) {
                let formula = self.formula(&args[0]);
                let (from, to, face) = (
                    self.noun(&args[1]),
                    self.noun(&args[2]),
                    self.noun(&args[3]),
                );
                let count = match n {
                    0 => "no chips".to_string(),
                    1 => "1 chip".to_string(),
                    n => format!("{n} chips"),
                };
                let formula = if formula.contains('`') {
                    format!(" ({formula})")
                } else {
                    String::new()
                };
                let verb = if n == 1 { "goes" } else { "go" };
                let tail = if n == 0 {
                    ""
                } else {
                    " (fewer if it runs out)"
                };
                return format!("{count}{formula} {verb} from {from} to {to} {face}{tail}");
            }
        }
        // `draw(len(L) - n, L, …)` reads "all but n of the chips in L go …".
        if name == "draw" && args.len() == 4 {
            if let ExprKind::Binary(BinOp::Sub, l, k) = &args[0].kind {
                if let (ExprKind::Call(f, inner), Some(n)) = (&l.kind, self.const_int(k)) {
                    let from = self.noun(&args[1]);
                    let counted = inner.first().map(|x| self.noun(x));
                    if f.name == "len" && counted.as_ref().is_some_and(|c| c.ends_with(&from)) {
                        let counted = counted.unwrap_or_default();
                        let formula = self.formula(k);
                        let formula = if formula.contains('`') {
                            format!(" ({formula})")
                        } else {
                            String::new()
                        };
                        let (to, face) = (self.noun(&args[2]), self.noun(&args[3]));
                        let rest = counted.strip_prefix("the ").unwrap_or(&counted);
                        return format!(
                            "all {rest} but {n}{formula} go to {to} {face} (none when there are {n} or fewer)"
                        );
                    }
                }
            }
        }
        let texts: Vec<String> = args.iter().map(|a| self.noun(a)).collect();
        if name == "score" {
            let winners = matches!(&args.first().map(|a| &a.kind), Some(ExprKind::Field(_, f)) if f.name == "winners");
            if winners && texts.len() == 2 && !self.ties_said {
                self.ties_said = true;
                return format!(
                    "{} score {} (when several players tie for the most, each of them scores it in full)",
                    texts[0], texts[1]
                );
            }
        }
        if name == "len" {
            if let Some(list) = texts.first() {
                return format!(
                    "the number of {}",
                    list.strip_prefix("the ").unwrap_or(list)
                );
            }
        }
        let mut text = match builtin_phrase(name) {
            Some((p, _)) => {
                let plural = texts.first().is_some_and(|t| self.is_plural(t));
                fill_agreeing(p, &texts, plural)
            }
            None => format!("{name}({})", texts.join(", ")),
        };
        if self.you_current {
            text = text.replace("the current player plays", "you play");
        }
        if name == "recall" && text.starts_with("your followers") {
            text = text.replace("back to their owners", "back to your reserve");
        }
        text
    }

    /// A choice of an action: "you may choose *pay*, 1 to 2 chips of the chips in your hand, such that …".
    pub(crate) fn choice(&mut self, c: &Choice) -> String {
        let name = c.name.name.clone();
        // `choose x: [s in L where F] where G` reads as one list, `L`, under the choice's name.
        let mut conds: Vec<&Expr> = Vec::new();
        let mut from_expr = &c.from;
        let mut renamed = false;
        if !c.chips {
            if let ExprKind::Aggregate {
                op: AggOp::Collect,
                var,
                list,
                filter: Some(f),
                map: None,
            } = &c.from.kind
            {
                from_expr = list;
                flatten(f, BinOp::And, &mut conds);
                self.rename.push((var.name.clone(), name.clone()));
                renamed = true;
            }
        }
        let from = self.noun(from_expr);
        let what = if c.chips {
            let size = match c.size.as_ref().map(|s| &s.kind) {
                Some(ExprKind::Range(a, b)) if self.noun(a) == self.noun(b) => {
                    format!("{} ", self.noun(a))
                }
                Some(_) => format!("{} ", self.noun(c.size.as_ref().expect("matched"))),
                None => "any ".into(),
            };
            format!("*{name}*, {size}chips from {from}")
        } else {
            match singular(&from) {
                Some((one, rest)) => format!("*{name}*, a {one}{rest}"),
                None => format!("*{name}* from {from}"),
            }
        };
        self.locals.push(name.clone());
        let one_chip = match c.size.as_ref().map(|s| &s.kind) {
            Some(ExprKind::Range(a, b)) => {
                self.const_int(a) == Some(1) && self.const_int(b) == Some(1)
            }
            Some(_) => c.size.as_ref().and_then(|s| self.const_int(s)) == Some(1),
            None => false,
        };
        if c.chips && !one_chip {
            self.plural.push(name.clone());
            if !name.ends_with('s') {
                self.chip_lists.push(name.clone());
            }
        }
        if let Some(f) = &c.filter {
            flatten(f, BinOp::And, &mut conds);
        }
        let texts: Vec<String> = self.conds(&conds);
        if renamed {
            self.rename.pop();
        }
        match texts.len() {
            0 => what,
            1 | 2 => format!("{what}, such that {}", shared_subject(&texts, "and")),
            _ => format!("{what}, such that {}", numbered(&texts, true)),
        }
    }
}

/// Conditions joined by `word`, a subject they all open with said once: "*set* are all of one value
/// or of 3 different colours" for "*set* are all of one value or *set* are of 3 different colours".
fn shared_subject(texts: &[String], word: &str) -> String {
    let joined = texts.join(&format!(" {word} "));
    let Some(first) = texts.first() else {
        return joined;
    };
    for verb in [" are ", " is "] {
        let Some(at) = first.find(verb) else {
            continue;
        };
        let subject = &first[..at + verb.len()];
        // Only a simple subject (a name in italics) and no comma lists inside.
        if texts.len() < 2
            || !(subject.starts_with('*') || subject.starts_with("the *"))
            || subject.matches('*').count() != 2
            || !texts.iter().all(|t| t.starts_with(subject))
        {
            continue;
        }
        let rests: Vec<&str> = texts.iter().map(|t| &t[subject.len()..]).collect();
        return format!("{subject}{}", rests.join(&format!(" {word} ")));
    }
    joined
}

/// Three or more conditions as a numbered list: "all of these are true: (1) …; (2) …".
pub(crate) fn numbered(texts: &[String], all: bool) -> String {
    let lead = if all {
        "all of these are true"
    } else {
        "one of these is true"
    };
    let items: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| format!("({}) {t}", i + 1))
        .collect();
    format!("{lead}: {}", items.join("; "))
}

/// The parts of a chain of one connective: `a and (b and c)` → a, b, c.
fn flatten<'a>(e: &'a Expr, op: BinOp, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Binary(o, a, b) if *o == op => {
            flatten(a, op, out);
            flatten(b, op, out);
        }
        _ => out.push(e),
    }
}

/// The names an expression reads (parameters, when it is constant).
fn param_names(e: &Expr) -> Vec<String> {
    let mut out = Vec::new();
    fn walk(e: &Expr, out: &mut Vec<String>) {
        match &e.kind {
            ExprKind::Name(n) => out.push(n.clone()),
            ExprKind::Unary(_, x) => walk(x, out),
            ExprKind::Binary(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            _ => {}
        }
    }
    walk(e, &mut out);
    out.dedup();
    out
}

/// "the chips in the square" → ("chip", " in the square"): one element of a list named by a plural
/// noun, for "some chip in the square", "each square next to *s*".
pub(crate) fn singular(list: &str) -> Option<(String, String)> {
    if let Some(rest) = list.strip_prefix("your ") {
        let word_end = rest.find(' ').unwrap_or(rest.len());
        let (word, tail) = rest.split_at(word_end);
        if matches!(word, "chips" | "followers") {
            return Some((
                format!("{} of yours", &word[..word.len() - 1]),
                tail.to_string(),
            ));
        }
        return None;
    }
    let rest = list.strip_prefix("the ")?;
    if let Some(tail) = rest.strip_prefix("tile stacks") {
        return Some(("tile stack".into(), tail.to_string()));
    }
    let word_end = rest.find(' ').unwrap_or(rest.len());
    let (word, tail) = rest.split_at(word_end);
    let one = match word {
        "chips" | "squares" | "followers" | "players" | "tiles" | "stacks" => {
            &word[..word.len() - 1]
        }
        _ => return None,
    };
    let tail = match tail.strip_prefix(" of the map") {
        Some(t) => format!(" on the map{t}"),
        None => tail.to_string(),
    };
    Some((one.to_string(), tail))
}

/// "X are" with the verb agreeing with X.
fn are(subject: &str) -> String {
    if is_plural(subject) || subject.starts_with('*') {
        format!("{subject} are")
    } else {
        format!("{subject} is")
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
pub(crate) fn fill(template: &str, args: &[String]) -> String {
    let plural = args.first().is_some_and(|a| is_plural(a));
    fill_agreeing(template, args, plural)
}

/// Fills a template, the verb agreeing with argument 0 as `plural` says.
pub(crate) fn fill_agreeing(template: &str, args: &[String], plural: bool) -> String {
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
            "your chips",
            "your followers",
            "the followers",
            "the squares",
            "the ones",
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
pub(crate) fn title_case(ident: &str) -> String {
    let words = ident.replace('_', " ");
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Singular nouns after a literal 1: "1 chip", "1 follower".
pub(crate) fn tidy(sentence: &str) -> String {
    sentence
        .replace(" 1 chips", " 1 chip")
        .replace(" 1 followers", " 1 follower")
        .replace(" 1 tiles", " 1 tile")
}

/// Whether `e` is a disjunction (`a or b`).
fn inner_or(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Binary(BinOp::Or, ..))
}

/// An arithmetic operator as a page writes it: `+`, `−`, `×`, `÷`, `mod`.
fn op_symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "−",
        BinOp::Mul => "×",
        BinOp::Div => "÷",
        _ => "mod",
    }
}
