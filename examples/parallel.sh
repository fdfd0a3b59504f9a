#!/bin/sh
# carto sim over several hosts with GNU parallel (documented, not tested here): 100 slices of 10,000
# France games, each host with `carto` on its path; parallel brings each slice's JSON back (--return)
# and the merge runs here. Slice K plays games K*10000 .. K*10000+9999 of the run with seed 1.
seq 0 99 | parallel -S host1,host2,host3 --return slice-{}.json --cleanup \
  'carto sim france --seed 1 --vs sale_town=7 --games 10000 --first-game $(({} * 10000)) --format json --quiet > slice-{}.json'
carto sim merge slice-*.json
