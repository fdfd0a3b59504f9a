/**
 * @file A tree-sitter grammar for carto rules files (`*.rules`), for editors' highlighting,
 * folding and outline. The reference grammar is grammar/carto.pest (documented in
 * grammar/GRAMMAR.md); this one follows it rule for rule but is meant for colouring, not for
 * checking: carto itself (`carto check`, `carto lsp`) says what is wrong with a file.
 * Scripts (`*.script`) have their own grammar: ../script/grammar.js.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const PREC = {
  range: 1,
  or: 2,
  and: 3,
  not: 4,
  compare: 5,
  sum: 6,
  product: 7,
  unary: 8,
  postfix: 9,
};

const commaSep = (rule) => optional(seq(rule, repeat(seq(',', rule)), optional(',')));

module.exports = grammar({
  name: 'carto',

  extras: ($) => [/\s/, $.comment],

  word: ($) => $.identifier,

  conflicts: ($) => [],

  rules: {
    source_file: ($) => repeat($._item),

    _item: ($) =>
      choice(
        $.import,
        $.variant,
        $.param,
        $.override,
        $.chips,
        $.holding,
        $.state,
        $.setup,
        $.rule,
        $.action,
        $.forced,
        $.remove,
        $.replace,
        $.change,
      ),

    // ------------------------------------------------------------ items
    import: ($) => seq('import', field('path', $.string)),

    variant: ($) =>
      seq('variant', field('name', $.string), field('body', $.variant_body)),
    variant_body: ($) => seq('{', repeat($.header_entry), '}'),
    header_entry: ($) => seq(field('key', $.identifier), '=', field('value', $._expression)),

    param: ($) =>
      seq(
        'param',
        field('name', $.identifier),
        ':',
        field('type', $._type),
        optional($.range_constraint),
        '=',
        field('default', $._expression),
        optional(
          choice(
            seq($.one_of, optional(field('doc', $.string))),
            seq(field('doc', $.string), optional($.one_of)),
          ),
        ),
      ),
    range_constraint: ($) => seq('in', $._expression),
    one_of: ($) => seq('one', 'of', $.list),
    _type: ($) => choice($.list_type, alias($.identifier, $.type)),
    list_type: ($) => seq('list', '<', $._type, '>'),

    override: ($) =>
      seq('override', field('name', $.identifier), '=', field('value', $._expression)),

    chips: ($) => seq('chips', field('body', $.chip_list)),
    chip_list: ($) => seq('{', commaSep($.chip_entry), '}'),
    chip_entry: ($) =>
      seq(field('colour', $.identifier), field('count', $.integer), 'x', field('value', $.integer)),

    holding: ($) =>
      seq('holding', field('name', $.identifier), optional(field('doc', $.string)), optional($.per_player)),
    per_player: ($) => seq('per', $.identifier),

    state: ($) =>
      seq(
        'state',
        field('name', $.identifier),
        ':',
        field('type', $._type),
        optional($.range_constraint),
        optional(seq('=', field('default', $._expression))),
        repeat(choice($.per_player, $.state_reset)),
        optional(field('doc', $.string)),
      ),
    state_reset: ($) => seq('reset', $.identifier),

    setup: ($) => seq('setup', field('body', $.block)),

    rule: ($) =>
      seq(
        'rule',
        field('name', $.identifier),
        'on',
        field('trigger', $.identifier),
        optional($.when),
        field('body', $.block),
      ),
    when: ($) => seq('when', $._expression),

    action: ($) =>
      seq(
        'action',
        field('name', $.identifier),
        optional($.action_params),
        optional($.phase),
        repeat($.limit),
        optional($.when),
        repeat($.choose),
        field('body', $.block),
      ),
    action_params: ($) => seq('(', commaSep($.action_param), ')'),
    action_param: ($) => seq(field('name', $.identifier), ':', field('type', $._type)),
    forced: ($) =>
      seq('forced', field('name', $.identifier), optional($.when), repeat($.choose), field('body', $.block)),
    phase: ($) => seq('phase', $.identifier),

    remove: ($) => seq('remove', choice('rule', 'action'), field('name', $.identifier)),
    replace: ($) => seq('replace', choice($.rule, $.action, $.forced)),
    change: ($) => seq('change', choice($.change_rule, $.change_action)),
    change_rule: ($) =>
      seq('rule', field('name', $.identifier), optional($.when), optional(field('body', $.block))),
    change_action: ($) =>
      seq(
        'action',
        field('name', $.identifier),
        optional($.phase),
        repeat($.limit),
        optional($.when),
        repeat($.choose),
        optional(field('body', $.block)),
      ),

    limit: ($) => seq('limit', choice($.limit_per, $.limit_group, $.identifier)),
    limit_per: ($) => seq('per', $.identifier, $._limit_count),
    limit_group: ($) => prec.right(seq('group', $.identifier, optional($._limit_count))),
    _limit_count: ($) => choice($.integer, $.parenthesized, $.identifier),

    choose: ($) =>
      seq('choose', field('name', $.identifier), ':', choice($.choose_chips, $.choose_one)),
    choose_chips: ($) =>
      prec.right(seq('chips', 'from', $._expression, optional($.size), optional($.filter))),
    choose_one: ($) => prec.right(seq(choice($._expression, $._chips_call), optional($.filter))),
    // `choose c: chips(hand(player))`: `chips` is a keyword only before `from` (pest tries
    // `chips from` first); here it is the builtin's name.
    _chips_call: ($) =>
      alias(seq(field('function', alias('chips', $.identifier)), field('arguments', $.arguments)), $.call),
    size: ($) => seq('size', $._expression),
    filter: ($) => seq('where', $._expression),

    // ------------------------------------------------------------ statements
    block: ($) => seq('{', repeat($._statement), '}'),
    _statement: ($) => choice($.let_statement, $.if_statement, $.for_statement, $.ask_statement, $.call),

    let_statement: ($) => seq('let', field('name', $.identifier), '=', field('value', $._expression)),
    if_statement: ($) =>
      prec.right(
        seq(
          'if',
          field('condition', $._expression),
          field('body', $.block),
          repeat($.else_if_clause),
          optional($.else_clause),
        ),
      ),
    else_if_clause: ($) => prec(1, seq('else', 'if', field('condition', $._expression), field('body', $.block))),
    else_clause: ($) => seq('else', field('body', $.block)),
    for_statement: ($) =>
      seq('for', field('name', $.identifier), 'in', field('iterable', $._expression), field('body', $.block)),
    ask_statement: ($) =>
      seq('ask', field('player', $._expression), field('decision', $.identifier), field('arguments', $.arguments)),

    // ------------------------------------------------------------ expressions
    _expression: ($) =>
      choice(
        $.range,
        $.binary,
        $.unary,
        $._postfix,
      ),

    range: ($) => prec.left(PREC.range, seq($._expression, '..', $._expression)),

    binary: ($) => {
      const table = [
        [PREC.or, 'or'],
        [PREC.and, 'and'],
        [PREC.compare, choice('==', '!=', '<=', '>=', '<', '>')],
        [PREC.sum, choice('+', '-')],
        [PREC.product, choice('*', '/', '%')],
      ];
      return choice(
        ...table.map(([p, op]) =>
          prec.left(p, seq(field('left', $._expression), field('operator', op), field('right', $._expression))),
        ),
      );
    },

    unary: ($) =>
      choice(
        prec(PREC.not, seq(field('operator', 'not'), field('operand', $._expression))),
        prec(PREC.unary, seq(field('operator', '-'), field('operand', $._expression))),
      ),

    _postfix: ($) => choice($.field_access, $.index, $._primary),
    field_access: ($) => prec(PREC.postfix, seq(field('object', $._postfix), '.', field('name', $.identifier))),
    index: ($) => prec(PREC.postfix, seq(field('object', $._postfix), '[', field('index', $._expression), ']')),

    _primary: ($) =>
      choice(
        $.integer,
        $.string,
        $.boolean,
        $.if_value,
        $.aggregate,
        $.comprehension,
        $.call,
        $.list,
        $.table,
        $.identifier,
        $.parenthesized,
      ),

    if_value: ($) =>
      prec.right(
        seq(
          'if',
          field('condition', $._expression),
          'then',
          field('then', $._expression),
          'else',
          field('else', $._expression),
        ),
      ),
    parenthesized: ($) => seq('(', $._expression, ')'),
    aggregate: ($) =>
      seq(
        field('function', $.identifier),
        '(',
        field('name', $.identifier),
        'in',
        field('iterable', $._expression),
        optional($.filter),
        optional($.mapping),
        ')',
      ),
    mapping: ($) => seq(':', $._expression),
    comprehension: ($) =>
      seq(
        '[',
        field('name', $.identifier),
        'in',
        field('iterable', $._expression),
        optional($.filter),
        optional($.mapping),
        ']',
      ),
    call: ($) => seq(field('function', $.identifier), field('arguments', $.arguments)),
    arguments: ($) => seq('(', commaSep($._expression), ')'),
    list: ($) => seq('[', commaSep($._expression), ']'),
    table: ($) => seq('{', commaSep($.table_entry), '}'),
    table_entry: ($) => seq(field('key', $._expression), ':', field('value', $._expression)),

    // ------------------------------------------------------------ tokens
    boolean: (_) => choice('true', 'false'),
    integer: (_) => /[0-9]+/,
    string: (_) =>
      choice(
        token(prec(1, seq('"""', repeat(choice(/[^"]/, /"[^"]/, /""[^"]/)), '"""'))),
        token(seq('"', repeat(choice(/[^"\\\n]/, /\\(.|\n)/)), '"')),
      ),
    identifier: (_) => /[A-Za-z_][A-Za-z0-9_]*/,
    comment: (_) => token(seq('#', /.*/)),
  },
});
