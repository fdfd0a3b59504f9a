//! Diagnostics for people: every problem in a user's file carries a byte span, and is rendered with
//! `file:line:col`, the source line, a caret and a hint (codespan-reporting, no colour).

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::termcolor::{Ansi, NoColor, WriteColor};
use codespan_reporting::term::{self, Config};

/// Whether diagnostics are rendered in colour (off unless the command line turns it on).
static COLOUR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Turns colour on or off for every diagnostic rendered after (`--color`, `NO_COLOR`).
pub fn set_colour(on: bool) {
    COLOUR.store(on, std::sync::atomic::Ordering::Relaxed);
}
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// The kinds of problem, each with a stable code: `E` for an error, `W` for a warning. Every
/// code is listed in `docs/error-codes.md` with an example that produces it (a test checks both
/// ways). The variants of one problem share its code; a code is never reused for another kind.
/// Numbered by area: E00xx reading and syntax, E01xx names, E02xx types and expressions, E03xx
/// parameters and the header, E04xx rules and actions, E05xx maps, E06xx tile sets, E07xx scripts,
/// E08xx a running game, W0xxx warnings.
macro_rules! codes {
    ($($(#[doc = $doc:literal])+ $name:ident $code:literal,)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($(#[doc = $doc])+ $name,)*
        }

        impl Code {
            /// Every code, in the order of the table.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The code as shown: `E0110`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $code,)*
                }
            }
        }
    };
}

codes! {
    /// A syntax error: the text does not follow the grammar (`expected …, found …`).
    Syntax "E0001",
    /// A string without its closing quote on its line.
    UnterminatedString "E0002",
    /// Not a valid name: a character that is not an ASCII letter, digit or `_`, or a reserved word.
    InvalidName "E0003",
    /// A number that does not fit in 64 bits.
    NumberTooLarge "E0004",
    /// An unknown escape in a string (`\t`).
    UnknownEscape "E0005",
    /// Expressions, blocks or types nested too deeply.
    TooDeep "E0006",
    /// A file that cannot be read: missing, a folder, not text, or no bundled file of that name.
    Unreadable "E0007",
    /// A map or tile-set file that is not valid TOML, or not of the expected shape.
    InvalidToml "E0008",
    /// An imported file that cannot be found.
    ImportNotFound "E0101",
    /// A file that imports itself, directly or through others.
    ImportCycle "E0102",
    /// A name that is not defined where it is used.
    UnknownName "E0110",
    /// A call of a builtin that does not exist.
    UnknownBuiltin "E0111",
    /// A field that the value's type does not have.
    UnknownField "E0112",
    /// A type name that does not exist.
    UnknownType "E0113",
    /// A trigger (`on …`) that does not exist.
    UnknownTrigger "E0114",
    /// A phase that does not exist.
    UnknownPhase "E0115",
    /// An asked action that does not exist.
    UnknownAction "E0116",
    /// A chip colour the variant does not have.
    UnknownColour "E0117",
    /// A limit, limit unit or limit flag that does not exist.
    UnknownLimit "E0118",
    /// A header key that does not exist.
    UnknownHeaderKey "E0119",
    /// An `override` of a parameter that does not exist.
    UnknownParameter "E0120",
    /// A square attribute that the map does not have.
    UnknownMapAttribute "E0121",
    /// A name defined twice (a rule, action, parameter, choice, chip colour, …).
    DefinedTwice "E0130",
    /// Something given twice where it is given once (a header key, a table key, a header, the chip set).
    GivenTwice "E0131",
    /// A value of the wrong type (`expected …, found …`), including operands that cannot be compared
    /// and values that cannot be indexed.
    TypeMismatch "E0201",
    /// A list of lists.
    NestedList "E0202",
    /// A call with the wrong number of arguments.
    ArgumentCount "E0203",
    /// A query used as a statement, or an effect used as a value.
    QueryOrEffect "E0204",
    /// Something that must be a constant and is not.
    NotConstant "E0205",
    /// A division by a constant zero.
    DivisionByZero "E0206",
    /// An aggregate of the wrong form (`count` with a `:` part).
    AggregateForm "E0207",
    /// A holding area used as the other kind (shared or per player).
    HoldingKind "E0208",
    /// A state the rules keep (`state NAME …`) declared or used wrongly: a type other than int or
    /// bool, one kept per player read without its player, `add` to a flag, a value that is no state.
    StateUse "E0209",
    /// A parameter of a type parameters cannot have, or with a constraint its type does not take.
    ParameterType "E0301",
    /// A value outside what its parameter allows (its range or its `one of` list).
    ValueNotAllowed "E0302",
    /// A range that holds no value (`5..2`).
    EmptyRange "E0303",
    /// A parameter's range that depends on itself.
    RangeCycle "E0304",
    /// More than the language allows: chip colours, table keys, a chip's count or value.
    TooMany "E0305",
    /// A header value that `play` refuses (players, followers, start squares, tile sets).
    HeaderRefused "E0306",
    /// The header's map cannot be loaded.
    MapNotLoaded "E0307",
    /// A tile set named by the header cannot be loaded.
    TileSetNotLoaded "E0308",
    /// A rule or action that can never apply.
    NeverApplies "E0401",
    /// A forced action that always applies, so would be taken again and again.
    EndlessForcedAction "E0402",
    /// An action of the wrong form: a forced one with parameters, an asked one with a phase, limits
    /// or a list parameter, an action asked that is not an asked action.
    ActionForm "E0403",
    /// An action asked after a house rule removed it.
    RemovedAction "E0404",
    /// A house rule (`change`, `remove`, `replace`) naming nothing imported.
    NothingToChange "E0405",
    /// A `change` that changes nothing.
    EmptyChange "E0406",
    /// A limit with a negative count.
    NegativeLimit "E0407",
    /// A map without a land square.
    NoLand "E0501",
    /// A square attribute of a type or value maps do not allow.
    BadAttribute "E0502",
    /// A square or range outside the map.
    OutsideMap "E0503",
    /// A problem in the map's legend: a key, a kind, a character not in it.
    Legend "E0504",
    /// A problem in the map's grid: missing, too large, rows of different lengths.
    Grid "E0505",
    /// A town, start square, ferry or exit on a square of the wrong kind.
    WrongSquare "E0506",
    /// A name used twice in a map, or a square named twice.
    MapNameTwice "E0507",
    /// A start square or town without a name.
    MissingName "E0508",
    /// A group of squares given badly: both squares and rows, or neither.
    Group "E0509",
    /// A border exit given badly: its side, its feature, or not facing off the map.
    Exit "E0510",
    /// A problem with a map's parts: one that cannot be loaded, includes itself, nests too deep,
    /// overlaps another or has problems of its own.
    Part "E0511",
    /// A tile set without tiles.
    NoTiles "E0601",
    /// A key a tile set does not know.
    UnknownKey "E0602",
    /// A tile-set value of the wrong type.
    WrongType "E0603",
    /// A key a tile must have and does not.
    MissingKey "E0604",
    /// A tile-set value out of its range (a count, `start`, an id, `edges`).
    BadValue "E0605",
    /// A tile whose sides, edges, half-edges and cities do not add up.
    TileShape "E0606",
    /// A tile id used twice, or a second start tile.
    TileTwice "E0607",
    /// A rules file played that declares no variant of its own (shared rules, for variants to
    /// import).
    SharedRules "E0309",
    /// A parameter set from outside the file (`--set name=value`, a script's `set`) that names no
    /// parameter, or gives a value it does not take.
    BadSet "E0310",
    /// A line of a script that is not a statement, or a header statement after the first move.
    ScriptLine "E0701",
    /// A script that names no variant, or names one that cannot be read.
    ScriptVariant "E0702",
    /// A script's players that its variant does not take: too few or too many, a name twice.
    ScriptPlayers "E0703",
    /// A script's setup that does not fit its variant: a start square, a tile, a chip's place.
    ScriptSetup "E0704",
    /// A move of a script that the game refuses, or a move after the game ended.
    MoveRefused "E0705",
    /// A script's `expect` that does not hold.
    ExpectationFailed "E0706",
    /// A rule, action or setup block that failed while the game ran on a value it cannot use: no
    /// such chip, tile, follower or player, a follower not on the board. (Each other way a running
    /// rule fails has a code of its own, E0804 to E0813.)
    RuleFailed "E0801",
    /// The game's setup that cannot be done: a setup block that failed, start squares or tiles the
    /// setup needs and does not have.
    SetupFailed "E0802",
    /// The answers of a person (`--agents human`) that ended, or named no option many times in a
    /// row, before the game did.
    AnswersEnded "E0803",
    /// A rule set a state the rules keep to a value outside its range (`state NAME: int in LO..HI`):
    /// refused, never clamped.
    StateOutOfRange "E0804",
    /// A running rule's number that does not fit in 64 bits: an operator, `abs`, a sum, a score,
    /// `add` to a state.
    Overflow "E0805",
    /// A running rule's division or remainder by zero (by a value known only while it runs).
    RuleDividedByZero "E0806",
    /// The rules that ran over the operation budget of a turn.
    OverBudget "E0807",
    /// Rules that trigger each other more than 32 deep.
    TriggersTooDeep "E0808",
    /// Rules that repeat without end: a forced action taken 1000 times in a turn, `on answered`
    /// rules that ask again every time, every turn skipped.
    RunsAway "E0809",
    /// A range of more than 100,000 numbers used as a list.
    LongRange "E0810",
    /// An element that is not there: an index past the end of a list, a table without the key,
    /// `first` of an empty list.
    NoSuchElement "E0811",
    /// A chip put on a square whose chip slots are all taken.
    NoFreeSlot "E0812",
    /// A map or tile attribute the game does not have (the endless table, a map without it, tile
    /// sets not read).
    NoAttribute "E0813",
    /// A line of a game log that is not JSON.
    LogLine "E0901",
    /// A log's `game_start` line that is missing or does not fit its variant: no rules, no seed, a
    /// player name, the number of players, a tile, the start tile, a chip.
    LogStart "E0902",
    /// The rules a log names that cannot be found: not a bundled variant and no readable file in
    /// the log's folder.
    LogRules "E0903",
    /// A log that disagrees with its replay: a line that differs, lines missing or too many, a
    /// choice the replayed game does not offer.
    ReplayDiffers "E0904",
    /// An output that cannot be written: a file, a folder, standard output.
    CannotWrite "E1001",
    /// An output named onto a file the command read: carto never writes onto its input.
    OverwriteRefused "E1002",
    /// Arguments the command refuses (exit 2): options that do not go together, a value out of its
    /// range, an agent that does not exist; in the playground, a request it cannot answer.
    BadArguments "E1003",
    /// A file given to `sim --merge` that is not a report of `sim --format json`, or reports that
    /// cannot be merged.
    BadReport "E1004",
    /// A parameter that nothing reads.
    UnusedParameter "W0001",
    /// Something that has no effect here (a trigger that never fires on this map, a limit in a phase
    /// it cannot bind).
    NoEffect "W0002",
    /// A house rule that makes a rule or action of another kind than the imported one.
    KindReplaced "W0003",
    /// A rules file without a `variant` header, which `carto play` refuses.
    NotAVariant "W0004",
    /// A script's `tiles` stack with more copies of a tile than the tile sets have.
    StackMismatch "W0005",
}

impl Code {
    pub(crate) fn severity(self) -> Severity {
        match self.as_str().starts_with('W') {
            true => Severity::Warning,
            false => Severity::Error,
        }
    }
}

/// One problem in one source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Its kind (see [`Code`]): every problem has one.
    pub code: Code,
    /// Byte range in the source text.
    pub span: Range<usize>,
    /// What is wrong, one line.
    pub message: String,
    /// Text shown under the caret (what was expected there).
    pub label: String,
    /// Extra lines: hints such as "did you mean `city`?".
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error of kind `code` (an `E` code).
    pub fn error(code: Code, span: Range<usize>, message: impl Into<String>) -> Self {
        debug_assert_eq!(code.severity(), Severity::Error, "{code:?}");
        Diagnostic {
            severity: Severity::Error,
            code,
            span,
            message: message.into(),
            label: String::new(),
            notes: Vec::new(),
        }
    }
    /// A warning of kind `code` (a `W` code).
    pub fn warning(code: Code, span: Range<usize>, message: impl Into<String>) -> Self {
        debug_assert_eq!(code.severity(), Severity::Warning, "{code:?}");
        Diagnostic {
            severity: Severity::Warning,
            code,
            span,
            message: message.into(),
            label: String::new(),
            notes: Vec::new(),
        }
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A source file as the user named it, with its text.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
}

impl Source {
    /// A lone carriage return (the line ending of old Mac editors) counts as a line break: it is
    /// read as `\n`, one byte for one, so every offset stays where it was and lines and columns are
    /// where the user's editor shows them.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let mut text = text.into();
        if text.contains('\r') {
            text = lone_cr_as_newline(text);
        }
        Source {
            name: name.into(),
            text,
        }
    }

    /// Where a caret at byte `offset` stands: the offset itself, but in the blanks at the end of the
    /// text (a message that found "the end of the file") the end of the last line with something on
    /// it, never a line after the file's last newline.
    pub fn settle(&self, offset: usize) -> usize {
        offset.min(self.text.trim_end_matches([' ', '\t', '\r', '\n']).len())
    }

    /// 1-based line and column (in characters) of a byte offset (at the end of the file: of the end
    /// of its last line with text, as [`Source::settle`] says).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.settle(offset);
        let before = &self.text[..floor_char_boundary(&self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// Renders diagnostics (in the order given) as text: plain, or with the terminal's colours when
    /// [`set_colour`] turned them on.
    pub fn render(&self, diags: &[Diagnostic]) -> String {
        if COLOUR.load(std::sync::atomic::Ordering::Relaxed) {
            let mut out = Ansi::new(Vec::new());
            self.render_into(diags, &mut out, false);
            String::from_utf8_lossy(&out.into_inner()).into_owned()
        } else {
            let mut out = NoColor::new(Vec::new());
            self.render_into(diags, &mut out, true);
            String::from_utf8_lossy(&out.into_inner()).into_owned()
        }
    }

    /// `plain`: no colour, so the common case may be drawn by [`Source::draw_plain`].
    fn render_into(&self, diags: &[Diagnostic], out: &mut dyn WriteColor, plain: bool) {
        // The text as it is, borrowed: drawing a diagnostic copies nothing of the file. Its line
        // starts are counted only when codespan draws.
        let mut file = None;
        let config = Config::default();
        for d in diags {
            let start = floor_char_boundary(&self.text, self.settle(d.span.start));
            let end = floor_char_boundary(&self.text, self.settle(d.span.end).max(start));
            if plain && self.draw_plain(d, start, end, out) {
                continue;
            }
            self.render_codespan(d, start, end, out, &config, &mut file);
        }
    }

    /// Draws `d` as codespan draws it, byte for byte, when that is simple: its span (`start..end`)
    /// within one line of at most [`LONG_LINE`] printable ASCII characters (no tab, no `\r`, no
    /// other control character). Codespan writes each character of the shown line through the
    /// formatting machinery (about a fifth of the cost of a short rules file in the fuzz target).
    /// Returns false, having written nothing, for any other diagnostic. A test compares both on
    /// many diagnostics.
    fn draw_plain(
        &self,
        d: &Diagnostic,
        start: usize,
        end: usize,
        out: &mut dyn WriteColor,
    ) -> bool {
        let text = &self.text;
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = &text[line_start..line_end];
        if end > line_end
            || line.len() > LONG_LINE
            || !line.bytes().all(|b| (b' '..=b'~').contains(&b))
        {
            return false;
        }
        let line_no = count_newlines(&text.as_bytes()[..line_start]) + 1;
        let pad = line_no.to_string().len();
        let gutter = " ".repeat(pad + 1);
        // The caret's columns: at least one, at most to one past the line's end.
        let (s, e) = (
            start - line_start,
            (end - line_start).max(start - line_start + 1),
        );
        let e = e.min(line.len() + 1);
        let mut o = String::with_capacity(256 + line.len() * 2);
        o.push_str(match d.severity {
            Severity::Error => "error: ",
            Severity::Warning => "warning: ",
        });
        o.push_str(&cut_long_words(&d.message));
        o.push('\n');
        o.push_str(&gutter);
        o.push_str("┌─ ");
        o.push_str(&self.name);
        o.push_str(&format!(":{line_no}:{}\n", s + 1));
        o.push_str(&gutter);
        o.push_str("│\n");
        o.push_str(&format!("{line_no} │ "));
        o.push_str(line);
        o.push('\n');
        o.push_str(&gutter);
        o.push_str("│ ");
        o.extend(std::iter::repeat_n(' ', s));
        o.extend(std::iter::repeat_n('^', e - s));
        let label = cut_long_words(&d.label);
        if !label.is_empty() {
            o.push(' ');
            o.push_str(&label);
        }
        o.push('\n');
        if !d.notes.is_empty() {
            o.push_str(&gutter);
            o.push_str("│\n");
        }
        for note in &d.notes {
            // A note of several lines is a nested report, rendered (and cut) already.
            let note = match note.contains('\n') {
                true => std::borrow::Cow::Borrowed(note.as_str()),
                false => std::borrow::Cow::Owned(cut_long_words(note)),
            };
            for (i, l) in note.lines().enumerate() {
                o.push_str(&gutter);
                o.push_str(if i == 0 { "= " } else { "  " });
                o.push_str(l);
                o.push('\n');
            }
        }
        o.push('\n');
        // Writing into a Vec cannot fail; a failure here would only lose text.
        let _ = out.write_all(o.as_bytes());
        true
    }

    /// Draws `d` with codespan-reporting (`file`: the whole text for codespan, made once).
    fn render_codespan<'s>(
        &'s self,
        d: &Diagnostic,
        start: usize,
        end: usize,
        out: &mut dyn WriteColor,
        config: &Config,
        file: &mut Option<SimpleFile<&'s str, &'s str>>,
    ) {
        let severity = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
        };
        // A note of several lines is a nested report, rendered (and cut) already.
        let notes: Vec<String> = d
            .notes
            .iter()
            .map(|n| match n.contains('\n') {
                true => n.clone(),
                false => cut_long_words(n),
            })
            .collect();
        let cs = severity
            .with_message(cut_long_words(&d.message))
            .with_notes(notes);
        let label = cut_long_words(&d.label);
        // Writing into a Vec cannot fail; a failure here would only lose text.
        match self.long_line_snippet(start, end) {
            None => {
                let file = file
                    .get_or_insert_with(|| SimpleFile::new(self.name.as_str(), self.text.as_str()));
                let cs = cs.with_labels(vec![Label::primary((), start..end).with_message(label)]);
                let _ = term::emit(out, config, &*file, &cs);
            }
            Some((snippet, range, note)) => {
                let cs = cs
                    .with_labels(vec![Label::primary((), range).with_message(label)])
                    .with_notes(vec![note]);
                let _ = term::emit(out, config, &snippet, &cs);
            }
        }
    }

    /// When the line at `start` is longer than [`LONG_LINE`] characters (a minified or generated
    /// file, a 1 MB line): a window of it around the caret, the caret's range in the window, and a
    /// note saying how long the line is. `file:line:col` stay those of the whole file.
    fn long_line_snippet(
        &self,
        start: usize,
        end: usize,
    ) -> Option<(Snippet, Range<usize>, String)> {
        let text = &self.text;
        let line_start = text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let line_end = text[start..]
            .find('\n')
            .map(|i| start + i)
            .unwrap_or(text.len());
        let line = &text[line_start..line_end];
        let chars = line.chars().count();
        if chars <= LONG_LINE {
            return None;
        }
        let (line_no, col) = self.line_col(start);
        // Char offsets of the window: 40 characters before the caret, 80 after.
        let from = (col - 1).saturating_sub(40);
        let to = (col - 1 + 80).min(chars);
        let byte = |c: usize| {
            line.char_indices()
                .nth(c)
                .map(|(i, _)| i)
                .unwrap_or(line.len())
        };
        let (b0, b1) = (byte(from), byte(to));
        let mut shown = String::new();
        if from > 0 {
            shown.push('…');
        }
        let offset = shown.len();
        shown.push_str(&line[b0..b1]);
        if to < chars {
            shown.push('…');
        }
        let s = offset + (start - line_start - b0);
        let e = offset + (end.min(line_start + b1).max(start) - line_start - b0);
        let note = format!(
            "line {line_no} is {} characters long: shown from column {} to {}",
            thousands(chars),
            from + 1,
            to
        );
        let snippet = Snippet {
            name: self.name.clone(),
            text: shown,
            line: line_no,
            col,
        };
        Some((snippet, s..e, note))
    }
}

/// Lines longer than this many characters are shown as a window around the caret.
pub(crate) const LONG_LINE: usize = 200;

/// Words (names, quoted text) longer than this many characters are cut in messages.
pub(crate) const LONG_WORD: usize = 80;

/// `n` with thousands separators: 1,000,212.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `text` with every word longer than [`LONG_WORD`] characters cut to its first 40, followed by
/// `…` and its length: a 100,000-character name is echoed as ``aaaa…` (100,002 characters)`.
pub(crate) fn cut_long_words(text: &str) -> String {
    if text.len() <= LONG_WORD {
        return text.to_string();
    }
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let ws = rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
        out.push_str(&rest[..ws]);
        rest = &rest[ws..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        let n = word.chars().count();
        if n > LONG_WORD {
            // A closing quote stays, so the quotes still pair; punctuation after it follows the
            // length: ``aaaa…` (100,000 characters):`.
            let tail: Vec<char> = word
                .chars()
                .rev()
                .take_while(|c| !c.is_alphanumeric())
                .take(3)
                .collect();
            let head = word.chars().take_while(|c| !c.is_alphanumeric()).count();
            let quote = tail.iter().position(|c| matches!(c, '`' | '"' | '\''));
            let (after, closing) = match quote {
                Some(q) => (&tail[..q], &tail[q..]),
                None => (&tail[..], &tail[..0]),
            };
            out.extend(word.chars().take(40));
            out.push('…');
            out.extend(closing.iter().rev());
            let inner = match head + tail.len() < n {
                true => n - head - tail.len(),
                false => n,
            };
            out.push_str(&format!(" ({} characters)", thousands(inner)));
            out.extend(after.iter().rev());
        } else {
            out.push_str(word);
        }
        rest = &rest[end..];
    }
    out
}

/// A line of an error message as printed: a line longer than 1,000 characters (a stranger's
/// text that reached a message unrendered) has its long words cut as [`cut_long_words`] does.
/// Rendered diagnostics are never that long, so their carets stay aligned.
pub fn cut_long_line(line: &str) -> std::borrow::Cow<'_, str> {
    if line.len() <= 1000 {
        return std::borrow::Cow::Borrowed(line);
    }
    std::borrow::Cow::Owned(cut_long_words(line))
}

/// A lone `\r` (not before `\n`) as `\n`.
fn lone_cr_as_newline(text: String) -> String {
    let mut bytes = text.into_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    // One ASCII byte replaced by another: still UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

/// One line of a file, cut to a window, for codespan: it reports the whole file's line and column.
struct Snippet {
    name: String,
    text: String,
    line: usize,
    col: usize,
}

impl<'a> codespan_reporting::files::Files<'a> for Snippet {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, _: ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.name)
    }
    fn source(&'a self, _: ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.text)
    }
    fn line_index(&'a self, _: (), _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(0)
    }
    fn line_number(&'a self, _: (), _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.line)
    }
    fn location(
        &'a self,
        _: (),
        _: usize,
    ) -> Result<codespan_reporting::files::Location, codespan_reporting::files::Error> {
        Ok(codespan_reporting::files::Location {
            line_number: self.line,
            column_number: self.col,
        })
    }
    fn line_range(
        &'a self,
        _: (),
        _: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        Ok(0..self.text.len())
    }
}

/// The number of `\n` in `bytes`, eight bytes at a time: under the fuzz targets' tracing of
/// comparisons, a comparison per byte cost more than the whole drawing of a diagnostic.
fn count_newlines(bytes: &[u8]) -> usize {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let chunks = bytes.chunks_exact(8);
    let tail = chunks.remainder().iter().filter(|&&b| b == b'\n').count();
    chunks.fold(tail, |n, c| {
        let mut word = [0; 8];
        word.copy_from_slice(c);
        // A byte of `x` is 0 where the byte was `\n`; the high bit of each byte of `zero` is set
        // exactly where `x` has a 0 byte (no carry crosses from one byte into the next).
        let x = u64::from_le_bytes(word) ^ 0x0a0a_0a0a_0a0a_0a0a;
        let zero = !(((x & LOW7) + LOW7) | x | LOW7);
        n + zero.count_ones() as usize
    })
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The closest of `candidates` to `name`, if it is close enough to be a likely typo: about one edit
/// in three letters (`scoring` for `score`), and only one in a name of four letters or fewer (`blue`
/// is two from `true`: another word, not a typo).
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    let n = name.chars().count();
    for c in candidates {
        let m = c.chars().count();
        let len = n.max(m);
        let limit = if len <= 4 { 1 } else { len.div_ceil(3) };
        // The distance is at least the difference in length: a candidate that cannot be close
        // enough, or cannot beat the best so far, is not measured (the checker asks this of every
        // name in scope, for every unknown one).
        let floor = n.abs_diff(m);
        if floor > limit || best.is_some_and(|(bd, _)| floor > bd) {
            continue;
        }
        let d = edit_distance(name, c);
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Edit distance where swapping two neighbouring letters counts as one edit (optimal string
/// alignment), so the likeliest typo ranks first: `titel` is 1 from `title`, 2 from `tiles`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // The table of distances between prefixes, row `i` (a prefix of `a`) at `i * w`: one allocation.
    let w = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        rows[i * w] = i;
    }
    for (j, cell) in rows[..w].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[(i - 1) * w + j] + 1)
                .min(rows[i * w + j - 1] + 1)
                .min(rows[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[(i - 2) * w + j - 2] + 1);
            }
            rows[i * w + j] = d;
        }
    }
    rows[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Code::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert_eq!(s.len(), 5, "{s}");
            assert!(matches!(&s[..1], "E" | "W"), "{s}");
            assert!(s[1..].chars().all(|d| d.is_ascii_digit()), "{s}");
        }
    }

    #[test]
    fn line_col_counts_characters() {
        let s = Source::new("f", "ab\ncdé f\n");
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(3), (2, 1));
        assert_eq!(s.line_col(8), (2, 5));
    }

    /// A caret at the end of a file that ends with a newline (`variant "x"` and no `{`) stands at
    /// the end of the last line with text, not on a line after the file.
    #[test]
    fn the_end_of_the_file_is_the_end_of_its_last_line() {
        let s = Source::new("f", "import \"base\"\n\nvariant \"x\"\n\n  \n");
        assert_eq!(s.line_col(s.text.len()), (3, 12));
        assert_eq!(s.line_col(s.text.len() + 5), (3, 12));
        assert_eq!(s.line_col(28), (3, 12));
        assert_eq!(s.line_col(3), (1, 4));
        let shown = s.render(&[Diagnostic::error(Code::Syntax, 31..31, "expected `{`")]);
        assert!(shown.contains("f:3:12"), "{shown}");
        assert!(
            shown.contains("3 │ variant \"x\"\n  │            ^"),
            "{shown}"
        );
        // Without a newline at the end, and a file of blanks only.
        assert_eq!(Source::new("f", "variant \"x\"").line_col(11), (1, 12));
        assert_eq!(Source::new("f", "\n\n").line_col(2), (1, 1));
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("ctiy", ["city", "road", "field"]),
            Some("city")
        );
        assert_eq!(did_you_mean("zzzzzz", ["city", "road"]), None);
        // A swap of two neighbouring letters is one edit: `titel` is nearer `title` than `tiles`.
        let keys = ["title", "doc", "map", "tiles", "players"];
        assert_eq!(did_you_mean("titel", keys), Some("title"));
        assert_eq!(did_you_mean("tiels", keys), Some("tiles"));
        assert_eq!(did_you_mean("raod", ["road", "river"]), Some("road"));
        // Two edits in four letters is another word, not a typo.
        assert_eq!(did_you_mean("blue", ["true", "false"]), None);
        assert_eq!(did_you_mean("tabel", ["table", "tile"]), Some("table"));
        assert_eq!(did_you_mean("scoring", ["score", "start"]), Some("score"));
    }

    /// Candidates skipped for their length could not have been chosen: the answer is the one of
    /// measuring every candidate (the nearest within the limit, the first in order on a tie).
    #[test]
    fn suggestions_skip_only_candidates_that_cannot_win() {
        let words: Vec<&str> = "a ab ba abc city cities road roads field fields score scoring \
            start title tiles titel tabel table x xxxxxxxxxx monastery monasteries é éé café cafe caf"
            .split_whitespace()
            .collect();
        for &name in &words {
            for skip in 0..words.len() {
                let candidates = &words[skip..];
                let measured = candidates
                    .iter()
                    .filter_map(|&c| {
                        let d = edit_distance(name, c);
                        let len = name.chars().count().max(c.chars().count());
                        let limit = if len <= 4 { 1 } else { len.div_ceil(3) };
                        (d <= limit).then_some((d, c))
                    })
                    .min()
                    .map(|(_, c)| c);
                assert_eq!(
                    did_you_mean(name, candidates.iter().copied()),
                    measured,
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn a_long_line_is_shown_around_the_caret() {
        let text = format!("ok\n{}bad{}\n", "x".repeat(5000), "y".repeat(5000));
        let s = Source::new("x.rules", text);
        let out = s.render(&[
            Diagnostic::error(Code::UnknownName, 5003..5006, "unknown `bad`").with_label("here"),
        ]);
        assert!(out.contains("x.rules:2:5001"), "{out}");
        assert!(
            out.contains("line 2 is 10,003 characters long: shown from column 4961 to 5080"),
            "{out}"
        );
        assert!(out.len() < 800, "{out}");
        // The caret stands under `bad`: 40 characters and the `…` after the gutter.
        let line = out
            .lines()
            .find(|l| l.contains("bad") && l.starts_with('2'))
            .unwrap();
        let caret = out.lines().find(|l| l.contains("^^^")).unwrap();
        assert_eq!(
            line.chars().position(|c| c == 'b'),
            caret.chars().position(|c| c == '^'),
            "{out}"
        );
    }

    #[test]
    fn long_words_are_cut_with_their_length() {
        let name = "a".repeat(100_000);
        assert_eq!(
            cut_long_words(&format!("cannot import `{name}`: not found")),
            format!(
                "cannot import `{}…` (100,000 characters): not found",
                "a".repeat(39)
            )
        );
        assert_eq!(cut_long_words("short `words` stay"), "short `words` stay");
    }

    #[test]
    fn a_lone_carriage_return_is_a_line_break() {
        let s = Source::new("f", "ab\rcd\r\nef");
        assert_eq!(s.text, "ab\ncd\r\nef");
        assert_eq!(s.line_col(4), (2, 2));
        assert_eq!(s.line_col(7), (3, 1));
    }

    #[test]
    fn newlines_are_counted() {
        let text: Vec<u8> = (0..300u32)
            .map(|i| [b'\n', b'a', 0x8a, 0x0b, 0x09, 0xff, 0][(i * i % 7) as usize])
            .collect();
        for from in 0..20 {
            for to in (from..text.len()).step_by(7) {
                let bytes = &text[from..to];
                let expected = bytes.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(count_newlines(bytes), expected, "{from}..{to}");
            }
        }
        assert_eq!(count_newlines(&[b'\n'; 64]), 64);
    }

    /// Every `.rules` file under `rules/` and `tests/` (the repository's own texts).
    fn bundled_texts() -> Vec<String> {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "rules") {
                    out.push(p);
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        walk(&root.join("rules"), &mut files);
        walk(&root.join("tests"), &mut files);
        files.sort();
        files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .collect()
    }

    /// The plain drawing of the common case is byte for byte codespan's: on every bundled rules
    /// file, whole, cut and with tabs, `\r`, non-ASCII and long lines put in, for spans at many
    /// places (empty, within a line, to its end, across lines, past the end of the file), with and
    /// without a label and notes (one line, several, empty).
    #[test]
    fn plain_drawing_is_codespans() {
        let mut texts = vec![String::new(), "x".into(), "\n\n".into(), "a\n".into()];
        for (i, t) in bundled_texts().into_iter().enumerate() {
            let cut = t.len() * (i % 7 + 1) / 9;
            let cut = floor_char_boundary(&t, cut);
            texts.push(t[..cut].to_string());
            let mut mutated = t.clone();
            let at = floor_char_boundary(&mutated, t.len() / 3);
            let insert = ["\t", "é", "\r", "\0", "\u{1b}", "y"][i % 6];
            mutated.insert_str(at, insert);
            let at = floor_char_boundary(&mutated, t.len() / 2);
            mutated.insert_str(at, &"z".repeat(150 + (i % 3) * 40));
            texts.push(mutated);
            texts.push(t);
        }
        let config = Config::default();
        let (mut fast, mut all) = (0, 0);
        for (i, text) in texts.iter().enumerate() {
            let src = Source::new(format!("f{i}.rules"), text.as_str());
            let n = src.text.len();
            let mut offsets: Vec<usize> = (0..n).step_by(97).collect();
            offsets.extend(src.text.match_indices('\n').map(|(j, _)| j).step_by(5));
            offsets.extend([n.saturating_sub(1), n, n + 3]);
            for (k, &o) in offsets.iter().enumerate() {
                for len in [0, 1, 3, 17, 60, 400] {
                    let code = [Code::Syntax, Code::UnknownName, Code::UnusedParameter][k % 3];
                    let mut d = match code.severity() {
                        Severity::Error => {
                            Diagnostic::error(code, o..o + len, "expected `x`, found `y`")
                        }
                        Severity::Warning => Diagnostic::warning(code, o..o + len, "unused"),
                    };
                    if k % 2 == 0 {
                        d = d.with_label("expected here");
                    }
                    match (k + len) % 4 {
                        0 => {}
                        1 => d = d.with_note("did you mean `city`?"),
                        2 => d = d.with_note("first\n  second\n").with_note(""),
                        _ => d = d.with_note(format!("word `{}`", "w".repeat(100))),
                    }
                    let start = floor_char_boundary(&src.text, src.settle(d.span.start));
                    let end = floor_char_boundary(&src.text, src.settle(d.span.end).max(start));
                    let mut plain = NoColor::new(Vec::new());
                    let drawn = src.draw_plain(&d, start, end, &mut plain);
                    let mut expected = NoColor::new(Vec::new());
                    src.render_codespan(&d, start, end, &mut expected, &config, &mut None);
                    all += 1;
                    if drawn {
                        fast += 1;
                        assert_eq!(
                            String::from_utf8_lossy(plain.get_ref()),
                            String::from_utf8_lossy(expected.get_ref()),
                            "{d:?} in\n{text}"
                        );
                    } else {
                        assert!(plain.get_ref().is_empty());
                    }
                }
            }
        }
        // Most are drawn plainly; the others (tabs, `\r`, long lines, several lines) by codespan.
        assert!(fast * 2 > all && fast < all, "{fast} of {all}");
    }

    #[test]
    fn renders_file_line_col_and_caret() {
        let s = Source::new("x.rules", "let a = 1\nlet b = c\n");
        let out = s.render(&[
            Diagnostic::error(Code::UnknownName, 18..19, "unknown name `c`")
                .with_label("not defined")
                .with_note("did you mean `a`?"),
        ]);
        assert!(out.contains("x.rules:2:9"), "{out}");
        assert!(out.contains('^'), "{out}");
    }
}
