//! How a running game fails: a rule, an action or a setup block that failed ([`Fault`], each kind
//! with its code, and the place in the rules file where it failed: [`At`]), a setup that cannot be
//! done, a player's input that ended.

use crate::diag::Code;

/// What was running when a game failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Running {
    Rule,
    Action,
    /// A `setup` block of the rules.
    Setup,
}

/// The kinds of failure of a running rule, each with its code (`docs/error-codes.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A value the rule cannot use: no such chip, tile, follower or player, a follower that is
    /// not on the board, a value of another kind than the checker found.
    BadValue,
    /// A number that does not fit in 64 bits (an operator, `abs`, a sum, a score, `add`).
    Overflow,
    /// A division or remainder by zero.
    DivisionByZero,
    /// The operation budget of a turn used up.
    OverBudget,
    /// Rules that trigger each other more than 32 deep.
    TooDeep,
    /// Something the rules repeat without end: a forced action taken again and again, `on
    /// answered` rules that ask again every time, every turn skipped.
    RunsAway,
    /// A range of more than 100,000 numbers made into a list.
    LongRange,
    /// An element that is not there: an index past the end of a list, a table without the key,
    /// `first` of an empty list.
    NoSuchElement,
    /// A chip put on a square whose chip slots are all taken.
    NoFreeSlot,
    /// A map or tile attribute the game does not have (the endless table, a map without it).
    NoAttribute,
    /// A state the rules keep set outside its range.
    StateOutOfRange,
}

impl Fault {
    /// Its code.
    pub fn code(self) -> Code {
        match self {
            Fault::BadValue => Code::RuleFailed,
            Fault::Overflow => Code::Overflow,
            Fault::DivisionByZero => Code::RuleDividedByZero,
            Fault::OverBudget => Code::OverBudget,
            Fault::TooDeep => Code::TriggersTooDeep,
            Fault::RunsAway => Code::RunsAway,
            Fault::LongRange => Code::LongRange,
            Fault::NoSuchElement => Code::NoSuchElement,
            Fault::NoFreeSlot => Code::NoFreeSlot,
            Fault::NoAttribute => Code::NoAttribute,
            Fault::StateOutOfRange => Code::StateOutOfRange,
        }
    }
}

/// A place in a rules file: the file (an index into the program's files) and a byte range of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct At {
    pub file: u16,
    pub start: u32,
    pub end: u32,
}

impl At {
    pub fn new(file: usize, span: &std::ops::Range<usize>) -> At {
        At {
            file: file as u16,
            start: span.start as u32,
            end: span.end as u32,
        }
    }

    pub fn span(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// A rule, an action or a setup block failed while running: its name, what it is, the kind
    /// of failure, what went wrong, and where in the rules (the effect or the expression that
    /// failed), when that is known.
    Rule {
        rule: String,
        what: Running,
        fault: Fault,
        message: String,
        at: Option<At>,
    },
    /// The setup cannot be done with this map and these settings.
    Setup(String),
    /// A player's input could not be had (a person's answers ended before the game did).
    Input(String),
}

impl GameError {
    /// A failure of the rules outside any rule's text (the flow of the game stops a runaway).
    pub fn runaway(rule: &str, message: String) -> GameError {
        GameError::Rule {
            rule: rule.to_string(),
            what: Running::Rule,
            fault: Fault::RunsAway,
            message,
            at: None,
        }
    }

    /// Its kind's code: one for each way a running game fails.
    pub fn code(&self) -> Code {
        match self {
            GameError::Rule { fault, .. } => fault.code(),
            GameError::Setup(_) => Code::SetupFailed,
            GameError::Input(_) => Code::AnswersEnded,
        }
    }
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Rule {
                rule,
                what,
                message,
                ..
            } => match what {
                Running::Rule => write!(f, "rule `{rule}`: {message}"),
                Running::Action => write!(f, "action `{rule}`: {message}"),
                Running::Setup => write!(f, "setup: {message}"),
            },
            GameError::Setup(m) => write!(f, "setup: {m}"),
            GameError::Input(m) => write!(f, "input: {m}"),
        }
    }
}
