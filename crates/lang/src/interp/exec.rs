//! The executor: runs the lowered plan (see `lower`). [`Interp::value`] gives a value node's value,
//! [`Interp::truth`] a condition node's truth, [`Interp::run_block`] runs a block of statements;
//! each is one `match` over the node's kind. Refusal explanations run the parts of an action's
//! `when` through [`Interp::truth`] too, so the reason given is the reason that held.

use super::board::SquareFlag;
use super::cx::Cx;
use super::lower::{Arg, Atom, Code, CodeId, Op, Operand, QueryFn, Span, Test, TestId};
use super::{placed, Interp, R};
use crate::ast::BinOp;
use crate::builtins::{Field, ReadField, MAX_PARAMS};
use crate::game::{Fault, GameError};
use crate::ir::Value;
use crate::state::{Place, State};

impl Interp {
    /// The value of an operand: a local, a parameter or a constant read in place (one
    /// operation), or a node's value.
    #[inline(always)]
    pub(super) fn arg(&mut self, st: &mut State, a: Arg) -> R<Value> {
        match a {
            Arg::Local(s) => {
                self.tick()?;
                Ok(self.local(s))
            }
            Arg::Param(p) => {
                self.tick()?;
                Ok(self.param(p))
            }
            Arg::Const(i) => {
                self.tick()?;
                Ok(self.code.consts[i as usize])
            }
            Arg::Node(id) => self.value(st, id),
        }
    }

    /// The value of a value node (compared with the tree walker's when the oracle is on: see
    /// `oracle`).
    #[inline(always)]
    pub(super) fn value(&mut self, st: &mut State, id: CodeId) -> R<Value> {
        #[cfg(any(test, feature = "oracle"))]
        if !self.code.oracle.codes.is_empty() {
            return self.value_beside_walker(st, id);
        }
        self.value_of(st, id)
    }

    /// The value of a value node: a dispatch to the node kind's own function (a call each, as
    /// small as the node). An error is placed where the node is written (see [`Self::code_failed`]).
    #[inline(always)]
    pub(super) fn value_of(&mut self, st: &mut State, id: CodeId) -> R<Value> {
        let r = self.value_node(st, id);
        if let Err(e) = r {
            return Err(self.code_failed(e, id));
        }
        r
    }

    /// An error that came through value node `id`, placed where the node is written when it can
    /// fail on its own (`Plan::code_at`) and nothing inside it placed the error first.
    #[cold]
    #[inline(never)]
    fn code_failed(&self, e: Box<GameError>, id: CodeId) -> Box<GameError> {
        match self.code.code_at[id.0 as usize] {
            Some(at) => placed(e, at),
            None => e,
        }
    }

    /// An error that came through condition node `id` (as [`Self::code_failed`]).
    #[cold]
    #[inline(never)]
    fn test_failed(&self, e: Box<GameError>, id: TestId) -> Box<GameError> {
        match self.code.test_at[id.0 as usize] {
            Some(at) => placed(e, at),
            None => e,
        }
    }

    /// An error of operand `k` of comparison `i` read in place, placed where the operand is
    /// written (`Plan::compare_at`).
    #[cold]
    #[inline(never)]
    fn operand_failed(&self, e: Box<GameError>, i: u32, k: usize) -> Box<GameError> {
        match self.code.compare_at[i as usize][k] {
            Some(at) => placed(e, at),
            None => e,
        }
    }

    /// The value of a value node, its error not placed yet (see [`Self::value_of`]).
    #[inline(always)]
    fn value_node(&mut self, st: &mut State, id: CodeId) -> R<Value> {
        match self.code.codes[id.0 as usize] {
            // A leaf counts its own operation, a condition its own.
            Code::Local(s) => self.leaf(Arg::Local(s)),
            Code::Param(p) => self.leaf(Arg::Param(p)),
            Code::Const(i) => self.leaf(Arg::Const(i)),
            Code::Truth(t) => self.truth_value(st, t),
            Code::LocalField(s, read) => self.local_field(st, s, read),
            Code::Field(x, read) => self.field_node(st, x, read),
            Code::Binary(op, a, b) => self.binary_node(st, op, a, b),
            Code::Contains(l, x) => self.contains_node(st, l, x),
            Code::SquareChipCount(x) => self.square_count_node(st, x),
            Code::PlaceChipCount(p) => self.place_count_node(st, p),
            Code::Query0(q) => self.query0(st, q),
            Code::Query1(q, x) => self.query1(st, q, x),
            Code::Query2(q, x, y) => self.query2(st, q, x, y),
            Code::Attr(x, a) => self.attr_node(st, x, a),
            Code::Aggregate(i) => self.aggregate_node(st, i),
            code => self.value_rest(st, code),
        }
    }

    #[inline(never)]
    fn leaf(&mut self, a: Arg) -> R<Value> {
        self.tick()?;
        Ok(match a {
            Arg::Local(s) => self.local(s),
            Arg::Param(p) => self.param(p),
            Arg::Const(i) => self.code.consts[i as usize],
            // Not a leaf: lowered as a node of its own.
            Arg::Node(_) => Value::Unit,
        })
    }

    #[inline(never)]
    fn truth_value(&mut self, st: &mut State, t: TestId) -> R<Value> {
        Ok(Value::Bool(self.truth(st, t)?))
    }

    #[inline(never)]
    fn local_field(&mut self, st: &mut State, s: u16, read: ReadField) -> R<Value> {
        // Two operations: the field and the local.
        self.tick2()?;
        let v = self.local(s);
        read(&mut Cx::new(self, st), v)
    }

    #[inline(never)]
    fn field_node(&mut self, st: &mut State, x: Arg, read: ReadField) -> R<Value> {
        self.tick()?;
        let v = self.arg(st, x)?;
        read(&mut Cx::new(self, st), v)
    }

    #[inline(never)]
    fn binary_node(&mut self, st: &mut State, op: BinOp, a: Arg, b: Arg) -> R<Value> {
        self.tick()?;
        let (x, y) = (self.arg(st, a)?, self.arg(st, b)?);
        self.binary_values(op, x, y)
    }

    #[inline(never)]
    fn contains_node(&mut self, st: &mut State, l: Arg, x: Arg) -> R<Value> {
        self.tick()?;
        let lv = self.arg(st, l)?;
        let xv = self.arg(st, x)?;
        super::query::contains(&mut Cx::new(self, st), lv, xv)
    }

    #[inline(never)]
    fn square_count_node(&mut self, st: &mut State, x: Arg) -> R<Value> {
        self.tick()?;
        let v = self.arg(st, x)?;
        Ok(Value::Int(self.count_square_chips(st, v)? as i64))
    }

    #[inline(never)]
    fn place_count_node(&mut self, st: &mut State, p: Arg) -> R<Value> {
        self.tick()?;
        let v = self.arg(st, p)?;
        Ok(Value::Int(self.count_place_chips(st, v)? as i64))
    }

    #[inline(never)]
    fn query0(&mut self, st: &mut State, q: QueryFn) -> R<Value> {
        self.tick()?;
        q(&mut Cx::new(self, st), &[Value::Unit; MAX_PARAMS])
    }

    #[inline(never)]
    fn attr_node(&mut self, st: &mut State, x: Arg, a: u16) -> R<Value> {
        self.tick()?;
        let v = self.arg(st, x)?;
        self.attr(st, v, a)
    }

    #[inline(never)]
    fn query2(&mut self, st: &mut State, q: QueryFn, x: Arg, y: Arg) -> R<Value> {
        self.tick()?;
        let v = self.arg(st, x)?;
        let w = self.arg(st, y)?;
        q(&mut Cx::new(self, st), &[v, w, Value::Unit, Value::Unit])
    }

    #[inline(never)]
    fn query1(&mut self, st: &mut State, q: QueryFn, x: Arg) -> R<Value> {
        self.tick()?;
        let v = self.arg(st, x)?;
        q(
            &mut Cx::new(self, st),
            &[v, Value::Unit, Value::Unit, Value::Unit],
        )
    }

    /// The nodes that are rarer in the hot path (queries on several arguments, lists, ranges, map
    /// attributes, indexing, negation), out of line; the operation is counted.
    #[inline(never)]
    fn value_rest(&mut self, st: &mut State, code: Code) -> R<Value> {
        self.tick()?;
        match code {
            Code::Query(q, args) => {
                let mut a = [Value::Unit; MAX_PARAMS];
                self.args_into(st, args, &mut a)?;
                q(&mut Cx::new(self, st), &a)
            }
            Code::Call(b, args) => {
                let mut a = [Value::Unit; MAX_PARAMS];
                self.args_into(st, args, &mut a)?;
                self.call_values(st, b, &a, args.len as usize)
            }
            Code::List(items) => {
                // Straight into the arena: evaluating an item may add lists, never change this one.
                let l = self.new_list();
                for k in items.range() {
                    let a = self.code.args[k];
                    let v = self.arg(st, a)?;
                    self.lists[l as usize].push(v);
                }
                Ok(Value::List(l))
            }
            Code::Range(a, b) => {
                let (a, b) = (self.number(st, a)?, self.number(st, b)?);
                Ok(Value::Range(a, b))
            }
            Code::Index(x, i) => {
                let v = self.arg(st, x)?;
                let i = self.number(st, i)?;
                self.index(v, i)
            }
            Code::Neg(x) => {
                let i = self.number(st, x)?;
                match i.checked_neg() {
                    Some(n) => Ok(Value::Int(n)),
                    None => Err(self.fail(Fault::Overflow, format!("`-({i})` overflows"))),
                }
            }
            Code::ToPlayers(x) => Ok(match self.arg(st, x)? {
                Value::Player(p) => Value::Players(1 << (p & 7)),
                v => v,
            }),
            Code::Cond(c, a, b) => {
                let chosen = if self.truth(st, c)? { a } else { b };
                self.arg(st, chosen)
            }
            // Counted above.
            Code::Local(s) => {
                self.budget.refund(1);
                self.arg(st, Arg::Local(s))
            }
            Code::Param(p) => {
                self.budget.refund(1);
                self.arg(st, Arg::Param(p))
            }
            Code::Const(i) => {
                self.budget.refund(1);
                self.arg(st, Arg::Const(i))
            }
            Code::Truth(t) => {
                self.budget.refund(1);
                Ok(Value::Bool(self.truth(st, t)?))
            }
            Code::LocalField(..)
            | Code::Field(..)
            | Code::Binary(..)
            | Code::Contains(..)
            | Code::SquareChipCount(_)
            | Code::PlaceChipCount(_)
            | Code::Query0(_)
            | Code::Query1(..)
            | Code::Query2(..)
            | Code::Attr(..)
            | Code::Aggregate(_) => Ok(Value::Unit),
        }
    }

    /// The values of up to four operands, into `a`.
    fn args_into(&mut self, st: &mut State, args: Span, a: &mut [Value; MAX_PARAMS]) -> R<()> {
        for (i, k) in args.range().enumerate().take(MAX_PARAMS) {
            let x = self.code.args[k];
            a[i] = self.arg(st, x)?;
        }
        Ok(())
    }

    /// A value node that must give a number.
    pub(super) fn number(&mut self, st: &mut State, a: Arg) -> R<i64> {
        match self.arg(st, a)? {
            Value::Int(i) => Ok(i),
            v => Err(self.fail(Fault::BadValue, format!("expected a number, found {v:?}"))),
        }
    }

    /// Aggregate `i` of the plan, through the static-aggregate memo when it has a slot there.
    #[inline(never)]
    fn aggregate_node(&mut self, st: &mut State, i: u32) -> R<Value> {
        self.tick()?;
        let agg = self.code.aggs[i as usize];
        let run = move |me: &mut Interp, st: &mut State| -> R<Value> {
            let lv = me.arg(st, agg.list)?;
            let filter = agg
                .filter
                .map(|f| move |me: &mut Interp, st: &mut State| me.truth(st, f));
            let map = agg
                .map
                .map(|m| move |me: &mut Interp, st: &mut State| me.arg(st, m));
            me.aggregate_over(st, agg.op, agg.var, lv, filter, map)
        };
        match agg.memo {
            Some(slot) => self.memoised(st, slot as usize, run),
            None => run(self, st),
        }
    }

    /// The truth of a condition node (compared with the tree walker's when the oracle is on: see
    /// `oracle`).
    #[inline(always)]
    pub(super) fn truth(&mut self, st: &mut State, id: TestId) -> R<bool> {
        #[cfg(any(test, feature = "oracle"))]
        if !self.code.oracle.tests.is_empty() {
            return self.truth_beside_walker(st, id);
        }
        self.truth_of(st, id)
    }

    /// The truth of a condition node: a dispatch to the node kind's own function. A node tested
    /// on its own (`root`) counts one operation. An error is placed where the node is written
    /// (see [`Self::test_failed`]).
    #[inline(always)]
    pub(super) fn truth_of(&mut self, st: &mut State, id: TestId) -> R<bool> {
        let r = self.truth_node(st, id);
        if let Err(e) = r {
            return Err(self.test_failed(e, id));
        }
        r
    }

    /// The truth of a condition node, its error not placed yet (see [`Self::truth_of`]).
    #[inline(always)]
    fn truth_node(&mut self, st: &mut State, id: TestId) -> R<bool> {
        let (test, root) = self.code.tests[id.0 as usize];
        match test {
            Test::Value(c) => self.value_truth(st, c),
            Test::Compare(i) => self.compare_node(st, i, root),
            Test::Against(i) => self.against(st, i, root),
            Test::SquareChain(i) => self.square_chain(st, i, root),
            Test::And(a, b) => self.and_node(st, a, b, root),
            Test::Not(x) => self.not_node(st, x, root),
            Test::Flag {
                slot,
                field,
                flag,
                negate,
            } => self.flag_node(st, slot, field, flag, negate, root),
            test => self.truth_rest(st, test, root),
        }
    }

    /// Any other expression: its value, which must be true or false (the value node counts its
    /// own operations).
    #[inline(never)]
    fn value_truth(&mut self, st: &mut State, c: CodeId) -> R<bool> {
        let v = self.value(st, c)?;
        self.as_bool(v)
    }

    #[inline(never)]
    fn compare_node(&mut self, st: &mut State, i: u32, root: bool) -> R<bool> {
        if root {
            self.tick()?;
        }
        let (op, a, b) = self.code.compares[i as usize];
        let x = match self.operand(st, a) {
            Ok(x) => x,
            Err(e) => return Err(self.operand_failed(e, i, 0)),
        };
        let y = match self.operand(st, b) {
            Ok(y) => y,
            Err(e) => return Err(self.operand_failed(e, i, 1)),
        };
        if let (Value::Int(x), Value::Int(y)) = (x, y) {
            return Ok(int_compare(op, x, y));
        }
        let v = self.binary_values(op, x, y)?;
        self.as_bool(v)
    }

    #[inline(never)]
    fn not_node(&mut self, st: &mut State, x: TestId, root: bool) -> R<bool> {
        if root {
            self.tick()?;
        }
        Ok(!self.truth(st, x)?)
    }

    #[inline(never)]
    fn and_node(&mut self, st: &mut State, a: TestId, b: TestId, root: bool) -> R<bool> {
        if root {
            self.tick()?;
        }
        Ok(self.truth(st, a)? && self.truth(st, b)?)
    }

    /// `x.f` (or `not x.f`) for a local `x` and a square flag `f`: read in place when `x` holds a
    /// square (anything else goes through the field's row, which gives the error).
    #[inline(never)]
    fn flag_node(
        &mut self,
        st: &mut State,
        slot: u16,
        field: Field,
        flag: SquareFlag,
        negate: bool,
        root: bool,
    ) -> R<bool> {
        if root {
            self.tick()?;
        }
        let v = self.local(slot);
        if let Value::Square(c) = v {
            return Ok(self.square_flag(st, c, flag) != negate);
        }
        let v = self.field(st, v, field)?;
        Ok(self.as_bool(v)? != negate)
    }

    #[inline(never)]
    fn truth_rest(&mut self, st: &mut State, test: Test, root: bool) -> R<bool> {
        if root {
            self.tick()?;
        }
        match test {
            Test::Const(b) => Ok(b),
            Test::Or(a, b) => Ok(self.truth(st, a)? || self.truth(st, b)?),
            Test::Local(s) => {
                let v = self.local(s);
                self.as_bool(v)
            }
            Test::LocalField(s, f) => {
                let v = self.local(s);
                let v = self.field(st, v, f)?;
                self.as_bool(v)
            }
            Test::LocalAttr(s, a) => {
                let v = self.local(s);
                let v = self.attr(st, v, a)?;
                self.as_bool(v)
            }
            // Counted above (as their own functions count it).
            Test::Value(c) => {
                let v = self.value(st, c)?;
                self.as_bool(v)
            }
            Test::Compare(_)
            | Test::Against(_)
            | Test::SquareChain(_)
            | Test::And(..)
            | Test::Not(_)
            | Test::Flag { .. } => Ok(false),
        }
    }

    /// An `and` chain led by square tests of one local (`not s.covered and len(s.chips) == 0 and
    /// …`): while the local holds a square, the tests read it in place one after another and the
    /// parts after them run as conditions; for any other value the chain runs as written.
    #[inline(never)]
    fn square_chain(&mut self, st: &mut State, i: u32, root: bool) -> R<bool> {
        if root {
            self.tick()?;
        }
        let chain = self.code.chains[i as usize];
        let Value::Square(c) = self.local(chain.slot) else {
            let (a, b) = chain.written;
            return Ok(self.truth(st, a)? && self.truth(st, b)?);
        };
        // The atoms as one slice (one bounds check), read through a shared borrow.
        if !self.code.atoms[chain.atoms.range()]
            .iter()
            .all(|&atom| self.atom_holds(st, c, atom))
        {
            return Ok(false);
        }
        for k in chain.rest.range() {
            let t = self.code.parts[k];
            if !self.truth(st, t)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// A square test read in place (see `lower::Atom`) of square `c`.
    #[inline(always)]
    fn atom_holds(&self, st: &State, c: u32, atom: Atom) -> bool {
        match atom {
            Atom::Flag(f, negate) => self.square_flag(st, c, f) != negate,
            Atom::Chips(op, k) => {
                let n = st.chip_count(Place::Square(c)).unwrap_or(0);
                int_compare(op, n as i64, k)
            }
        }
    }

    /// Trace mode, for refusals: the truth of condition `id` (an action's `when`) as [`Self::truth`]
    /// gives it, and which of its `and`-joined parts decided it: the index of the part that was
    /// false (`None` when it holds). The `and`s and square chains that join the parts run here, in
    /// the order and with the operations `truth` gives them; each part runs through `truth`. Play
    /// never comes here: the trace costs nothing there.
    pub(super) fn truth_traced(&mut self, st: &mut State, id: TestId) -> R<(bool, Option<usize>)> {
        let mut part = 0;
        let holds = self.traced(st, id, &mut part)?;
        Ok((holds, (!holds).then_some(part)))
    }

    /// A node of the `and` spine of a traced condition; `part` counts the parts that held so far,
    /// so when it gives false, `part` is the index of the part that was false.
    fn traced(&mut self, st: &mut State, id: TestId, part: &mut usize) -> R<bool> {
        let (test, root) = self.code.tests[id.0 as usize];
        match test {
            Test::And(a, b) => {
                if root {
                    self.tick()?;
                }
                Ok(self.traced(st, a, part)? && self.traced(st, b, part)?)
            }
            Test::SquareChain(i) => {
                if root {
                    self.tick()?;
                }
                let chain = self.code.chains[i as usize];
                let Value::Square(c) = self.local(chain.slot) else {
                    let (a, b) = chain.written;
                    return Ok(self.traced(st, a, part)? && self.traced(st, b, part)?);
                };
                // The square tests are the chain's first parts, the rest the parts after them.
                for k in chain.atoms.range() {
                    if !self.atom_holds(st, c, self.code.atoms[k]) {
                        return Ok(false);
                    }
                    *part += 1;
                }
                for k in chain.rest.range() {
                    let t = self.code.parts[k];
                    if !self.traced(st, t, part)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            // A part.
            _ => {
                let holds = self.truth(st, id)?;
                *part += usize::from(holds);
                Ok(holds)
            }
        }
    }

    /// A number read in place against a constant (see `lower::Against`): compared without making
    /// values when it is one (anything else as `binary_values`, the operands in their written order).
    #[inline(never)]
    fn against(&mut self, st: &mut State, i: u32, root: bool) -> R<bool> {
        if root {
            self.tick()?;
        }
        let x = self.code.againsts[i as usize];
        let ints = |n: i64| {
            if x.swapped {
                int_compare(x.op, x.k, n)
            } else {
                int_compare(x.op, n, x.k)
            }
        };
        let v = match x.a {
            Operand::LocalChips(s) => {
                let v = self.local(s);
                // A square's count, read in place (as `count_square_chips` reads it).
                if let Value::Square(c) = v {
                    self.tick()?;
                    if let Some(n) = st.chip_count(Place::Square(c)) {
                        return Ok(ints(n as i64));
                    }
                }
                return Ok(ints(self.count_square_chips(st, v)? as i64));
            }
            Operand::PlaceChips(kind, s, code) => {
                match kind.of(self.local(s)) {
                    Some(place) => {
                        let n = self.count_place_chips(st, Value::Place(place))? as i64;
                        return Ok(ints(n));
                    }
                    // Anything else: the whole `len(chips(…))`, tested as a value.
                    None => self.value(st, code)?,
                }
            }
            Operand::LocalField(s, f) => {
                let v = self.local(s);
                self.field(st, v, f)?
            }
            a => self.operand(st, a)?,
        };
        match v {
            Value::Int(n) => Ok(ints(n)),
            v => {
                let (l, r) = if x.swapped {
                    (Value::Int(x.k), v)
                } else {
                    (v, Value::Int(x.k))
                };
                let b = self.binary_values(x.op, l, r)?;
                self.as_bool(b)
            }
        }
    }

    #[inline(always)]
    fn operand(&mut self, st: &mut State, o: Operand) -> R<Value> {
        match o {
            Operand::Const(i) => Ok(self.code.consts[i as usize]),
            Operand::Int(k) => Ok(Value::Int(k)),
            Operand::Param(p) => Ok(self.param(p)),
            Operand::Local(s) => Ok(self.local(s)),
            Operand::LocalField(s, f) => {
                let v = self.local(s);
                self.field(st, v, f)
            }
            Operand::LocalChips(s) => {
                let v = self.local(s);
                Ok(Value::Int(self.count_square_chips(st, v)? as i64))
            }
            Operand::PlaceChips(_, _, c) | Operand::Code(c) => self.value(st, c),
        }
    }

    /// A value that must be true or false.
    #[inline]
    pub(super) fn as_bool(&self, v: Value) -> R<bool> {
        match v {
            Value::Bool(b) => Ok(b),
            v => Err(self.fail(
                Fault::BadValue,
                format!("expected true or false, found {v:?}"),
            )),
        }
    }

    /// Runs a block of statements. An error is placed at the statement it comes from (unless a
    /// statement inside it placed it already).
    pub(super) fn run_block(&mut self, st: &mut State, block: Span) -> R<()> {
        for k in block.range() {
            if let Err(e) = self.run_op(st, k) {
                return Err(placed(e, self.code.op_at[k]));
            }
        }
        Ok(())
    }

    /// Runs the statement `k` of the plan.
    #[inline]
    fn run_op(&mut self, st: &mut State, k: usize) -> R<()> {
        self.tick()?;
        match self.code.ops[k] {
            Op::Let(slot, x) => {
                let v = self.arg(st, x)?;
                self.set(slot, v)?;
            }
            Op::If(branches, otherwise) => {
                let mut done = false;
                for b in branches.range() {
                    let (c, body) = self.code.branches[b];
                    let holds = match self.truth(st, c) {
                        Ok(holds) => holds,
                        Err(e) => return Err(placed(e, self.code.branch_at[b])),
                    };
                    if holds {
                        self.run_block(st, body)?;
                        done = true;
                        break;
                    }
                }
                if let (false, Some(body)) = (done, otherwise) {
                    self.run_block(st, body)?;
                }
            }
            Op::For(slot, x, body) => {
                let v = self.arg(st, x)?;
                for k in 0..self.len_of(v)? {
                    let item = self.elem_at(v, k);
                    self.set(slot, item)?;
                    self.run_block(st, body)?;
                }
            }
            Op::Effect(b, args) => {
                let mut a = [Value::Unit; MAX_PARAMS];
                self.args_into(st, args, &mut a)?;
                self.effect(st, b, &a[..args.len as usize])?;
            }
            Op::Ask { who, action, args } => {
                let who = self.arg(st, who)?;
                self.ask(st, who, action, args.len as usize, |me, st, i| {
                    let a = me.code.args[args.start as usize + i];
                    me.arg(st, a)
                })?;
            }
        }
        Ok(())
    }
}

/// `x OP y` on two numbers.
#[inline]
fn int_compare(op: BinOp, x: i64, y: i64) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        _ => x >= y,
    }
}

#[cfg(test)]
mod tests {
    use super::super::lower::Lower;
    use super::*;
    use crate::builtins::{Builtin, Field};
    use crate::ir::{Expr as E, Src};
    use std::sync::Arc;

    fn local_field(f: Field) -> Box<E> {
        Box::new(E::Field(Box::new(E::Local(1)), f, Src::NONE))
    }

    fn and(a: E, b: E) -> E {
        E::Binary(BinOp::And, Box::new(a), Box::new(b), Src::NONE)
    }

    /// `len(s.chips) OP k`.
    fn chips(op: BinOp, k: i64) -> E {
        let len = E::Call(
            Builtin::from_name("len").expect("a builtin"),
            vec![*local_field(Field::SquareChips)],
            Src::NONE,
        );
        E::Binary(
            op,
            Box::new(len),
            Box::new(E::Const(Value::Int(k))),
            Src::NONE,
        )
    }

    /// Square tests read in place give what the tree-walking evaluator gives, on every cell of a
    /// finished game (covered or not, with or without chips) and for a value that is no square;
    /// traced (refusals), the part they name is the first the walker finds false.
    #[test]
    fn square_chains_agree_with_the_evaluator() {
        let v = super::super::probe::variant("red 1 x 3", "");
        let players = ["ann".to_string(), "bob".to_string()];
        let mut g = v
            .new_game(v.config.clone(), &players, 3, false)
            .expect("a game starts");
        let mut rng = carto_engine::rng::Rng::new(3);
        crate::game::play_random(&mut g, &mut rng).expect("the game runs");
        // Chips on a covered cell and on a free one.
        let covered = g.st.board.placed[0].cell;
        g.st.move_chip(0, crate::state::Place::Square(covered), true);
        let free = (0..g.st.board.tile.len())
            .find(|&c| g.st.board.tile[c] == crate::features::NONE)
            .expect("a free cell") as u32;
        g.st.move_chip(1, crate::state::Place::Square(free), true);
        let x_pos = E::Binary(
            BinOp::Gt,
            local_field(Field::SquareX),
            Box::new(E::Const(Value::Int(0))),
            Src::NONE,
        );
        let conds = [
            and(
                E::Not(local_field(Field::SquareCovered)),
                chips(BinOp::Eq, 0),
            ),
            and(*local_field(Field::SquareCovered), chips(BinOp::Ge, 1)),
            and(
                and(E::Not(local_field(Field::SquareLand)), chips(BinOp::Lt, 1)),
                x_pos,
            ),
            and(
                chips(BinOp::Ne, 0),
                E::Not(local_field(Field::SquareCovered)),
            ),
        ];
        let (mut st, me) = (g.st, &mut g.hooks);
        let cells = st.board.square.len().max(st.board.tile.len()) as u32;
        for e in &conds {
            let mut lw = Lower::new(&[]);
            let fast = lw.test(e, true);
            assert!(matches!(
                lw.plan.tests[fast.0 as usize].0,
                Test::SquareChain(_)
            ));
            let plan = std::mem::replace(&mut me.code, Arc::new(lw.plan));
            let saved = me.enter(2);
            let mut seen = [0usize; 2];
            for c in 0..cells {
                me.set(1, Value::Square(c)).expect("a slot");
                let want = me.bool(&mut st, e).expect("a square test");
                assert_eq!(
                    me.truth(&mut st, fast).expect("a square test"),
                    want,
                    "{e:?} at {c}"
                );
                seen[want as usize] += 1;
                // The trace (refusals) names the first part the walker finds false.
                let mut parts = Vec::new();
                e.conjuncts(&mut parts);
                let first_false = parts
                    .iter()
                    .position(|p| !me.bool(&mut st, p).expect("a square test"));
                assert_eq!(
                    me.truth_traced(&mut st, fast).expect("a square test"),
                    (want, first_false),
                    "{e:?} at {c}"
                );
            }
            assert!(seen[0] > 0 && seen[1] > 0, "{e:?}: {seen:?}");
            // Not a square: both report it.
            me.set(1, Value::Int(3)).expect("a slot");
            assert!(me.bool(&mut st, e).is_err() && me.truth(&mut st, fast).is_err());
            assert!(me.truth_traced(&mut st, fast).is_err());
            me.leave(saved);
            me.code = plan;
        }
    }
}
