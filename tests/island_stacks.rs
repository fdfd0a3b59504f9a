//! Benelux setup (spec §5.1): the rules deal a stack of 5 tiles from the draw stack onto each island
//! stack square, 2 stacks per chip colour, before turn 1.

use carto::map::AttrValue;
use carto::variant::load_variant;
use std::collections::BTreeMap;

#[test]
fn benelux_deals_two_stacks_of_five_per_island_colour() {
    let v = load_variant("benelux", &[]).unwrap_or_else(|e| panic!("{}", e.text));
    let map = v.map.clone().unwrap();
    let total: u32 = v.config.counts.iter().sum();
    for seed in 1..=10 {
        let players = ["ann".to_string(), "bob".to_string()];
        let game = v.new_game(v.config.clone(), &players, seed, false).unwrap();
        let mut per_colour: BTreeMap<String, usize> = BTreeMap::new();
        for stack in &game.st.tile_stacks {
            let (x, y) = game.st.board.xy(stack.cell);
            let Some(AttrValue::Str(colour)) = map.square(x, y).unwrap().attrs.get("stack") else {
                panic!("seed {seed}: a stack at {x},{y}, which is no stack square");
            };
            assert_eq!(stack.tiles.len(), 5, "seed {seed}: stack at {x},{y}");
            *per_colour.entry(colour.clone()).or_default() += 1;
        }
        let want: BTreeMap<String, usize> = [("blue", 2), ("orange", 2), ("purple", 2)]
            .into_iter()
            .map(|(c, n)| (c.to_string(), n))
            .collect();
        assert_eq!(per_colour, want, "seed {seed}");
        // The stacks come out of the draw stack: all tiles but the two start squares' and 30 dealt.
        assert_eq!(game.st.stack.len() as u32, total - 2 - 30, "seed {seed}");
    }
}
