; carto rules files: highlighting (capture names as Zed, Helix, Neovim and `tree-sitter highlight` use).

(comment) @comment
(string) @string
(integer) @number
(boolean) @boolean

[
  "import" "variant" "param" "override" "chips" "holding" "state" "reset" "setup"
  "rule" "on" "when" "action" "forced" "phase" "limit" "per" "group" "choose"
  "from" "size" "where" "one" "of" "list" "remove" "replace" "change"
] @keyword

[ "let" "ask" ] @keyword
[ "if" "then" "else" ] @keyword
[ "for" "in" ] @keyword
[ "and" "or" "not" ] @keyword

[ "==" "!=" "<=" ">=" "<" ">" "+" "-" "*" "/" "%" ".." "=" ] @operator
[ "(" ")" "[" "]" "{" "}" ] @punctuation.bracket
[ "," ":" "." ] @punctuation.delimiter
"x" @punctuation.delimiter

; Declarations
(variant name: (string) @title)
(param name: (identifier) @constant)
(override name: (identifier) @constant)
(state name: (identifier) @variable)
(holding name: (identifier) @type)
(chip_entry colour: (identifier) @constant)
(rule name: (identifier) @function)
(rule trigger: (identifier) @label)
(action name: (identifier) @function)
(forced name: (identifier) @function)
(remove name: (identifier) @function)
(change_rule name: (identifier) @function)
(change_action name: (identifier) @function)
(header_entry key: (identifier) @property)
(phase (identifier) @label)
(type) @type
(list_type "list" @type)
(action_param name: (identifier) @variable)
(choose name: (identifier) @variable)
(let_statement name: (identifier) @variable)
(for_statement name: (identifier) @variable)
(aggregate name: (identifier) @variable)
(comprehension name: (identifier) @variable)

; Uses
(call function: (identifier) @function)
(aggregate function: (identifier) @function)
(ask_statement decision: (identifier) @function)
(field_access name: (identifier) @property)
