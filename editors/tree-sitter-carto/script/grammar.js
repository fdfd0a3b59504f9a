/**
 * @file A tree-sitter grammar for carto scripts (`*.script`, docs/format-script.md), for editors'
 * highlighting: one instruction a line, its first word the command (`place`, `expect`, an action's
 * name, or `PLAYER: OPTION` for an asked decision), then its words, numbers, squares (`1,0`) and
 * rotations (`r90`); `#` starts a comment. carto itself (`carto run`, `carto lsp`) checks a script.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

module.exports = grammar({
  name: 'carto_script',

  // Newlines end an instruction, so they are tokens, not blanks.
  extras: ($) => [/[ \t\r\f\uFEFF]/, $.comment],

  word: ($) => $.word,

  rules: {
    source_file: ($) => seq(repeat(choice(seq($.line, $._newline), $._newline)), optional($.line)),

    line: ($) =>
      seq(
        optional(field('player', $.player)),
        field('command', choice($.keyword, alias($.word, $.name))),
        repeat($._argument),
      ),

    keyword: (_) =>
      choice(
        'variant', 'players', 'seed', 'set', 'starts', 'start_tile', 'stack', 'tiles', 'chip',
        'place', 'follower', 'pass', 'expect', 'rest',
      ),

    _argument: ($) => choice($.word, $.integer, $.square, $.rotation, $.punctuation),

    integer: (_) => /-?[0-9]+/,
    square: (_) => token(prec(1, /-?[0-9]+,-?[0-9]+/)),
    rotation: (_) => token(prec(1, /r(0|90|180|270)/)),
    punctuation: (_) => choice(',', ':', '=', '+'),
    // `bob: pay_toll orange1`: who decides an asked decision (one token, so that `hand:ann` further
    // on the line stays a word, a colon and a word).
    player: (_) => token(seq(/[^\s#,:=+0-9\-][^\s#,:=+]*/, ':')),
    word: (_) => /[^\s#,:=+0-9\-][^\s#,:=+]*/,

    _newline: (_) => /\n/,
    comment: (_) => token(seq('#', /.*/)),
  },
});
