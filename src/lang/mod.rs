//! The rules language: parser, builtin table, static checker and the checked program (IR) the
//! interpreter runs. See grammar/DESIGN.md and grammar/GRAMMAR.md.

pub mod ast;
pub mod builtins;
pub mod check;
pub mod consts;
pub mod gen;
pub mod interp;
pub mod ir;
pub mod parser;
pub mod phrases;
