; carto rules files: the outline (Zed's outline panel and symbol search).
(variant "variant" @context name: (string) @name) @item
(param "param" @context name: (identifier) @name) @item
(override "override" @context name: (identifier) @name) @item
(chips "chips" @name) @item
(holding "holding" @context name: (identifier) @name) @item
(state "state" @context name: (identifier) @name) @item
(setup "setup" @name) @item
(rule "rule" @context name: (identifier) @name) @item
(action "action" @context name: (identifier) @name) @item
(forced "forced" @context name: (identifier) @name) @item
(remove "remove" @context name: (identifier) @name) @item
(change_rule "rule" @context name: (identifier) @name) @item
(change_action "action" @context name: (identifier) @name) @item
