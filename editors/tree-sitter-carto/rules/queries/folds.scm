; carto rules files: what folds.
[
  (variant_body)
  (chip_list)
  (block)
  (table)
  (list)
  (arguments)
] @fold
