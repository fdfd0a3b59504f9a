; carto scripts: highlighting.
(comment) @comment
(keyword) @keyword
(line command: (name) @function)
(player) @variable
(integer) @number
(square) @number
(rotation) @constant
(punctuation) @punctuation.delimiter
