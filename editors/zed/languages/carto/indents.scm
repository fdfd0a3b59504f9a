[
  (variant_body)
  (chip_list)
  (block)
  (table)
  (list)
  (arguments)
] @indent
(_ "}" @end) @indent
(_ "]" @end) @indent
(_ ")" @end) @indent
