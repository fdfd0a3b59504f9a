//! The moments the engine offers to the rules: the triggers it fires (with what each binds) and the
//! phases of a turn in which it offers actions.

/// The game events rules are triggered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Trigger {
    Placed,
    Adjacent,
    Abroad,
    Gained,
    FollowerPlaced,
    Scored,
    Returned,
    TurnStart,
    TurnEnd,
    RoundEnd,
    GameEnd,
    /// Every decision asked at a step has been answered (or dropped): settle what they decided.
    Answered,
}

impl Trigger {
    pub const ALL: [Trigger; 12] = [
        Trigger::Placed,
        Trigger::Adjacent,
        Trigger::Abroad,
        Trigger::Gained,
        Trigger::FollowerPlaced,
        Trigger::Scored,
        Trigger::Returned,
        Trigger::TurnStart,
        Trigger::TurnEnd,
        Trigger::RoundEnd,
        Trigger::GameEnd,
        Trigger::Answered,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Trigger::Placed => "placed",
            Trigger::Adjacent => "adjacent",
            Trigger::Abroad => "abroad",
            Trigger::Gained => "gained",
            Trigger::FollowerPlaced => "follower_placed",
            Trigger::Scored => "scored",
            Trigger::Returned => "returned",
            Trigger::TurnStart => "turn_start",
            Trigger::TurnEnd => "turn_end",
            Trigger::RoundEnd => "round_end",
            Trigger::GameEnd => "game_end",
            Trigger::Answered => "answered",
        }
    }
    pub fn from_name(s: &str) -> Option<Trigger> {
        Trigger::ALL.into_iter().find(|t| t.name() == s)
    }
    /// The names a rule on this trigger sees, in slot order (slot 0, 1, …), with what each is.
    pub fn binds(self) -> &'static [(&'static str, Bound)] {
        const P: (&str, Bound) = ("player", Bound::Player);
        const T: (&str, Bound) = ("tile", Bound::Tile);
        const S: (&str, Bound) = ("square", Bound::Square);
        match self {
            Trigger::Placed => const { &[P, T, S] },
            Trigger::Adjacent => const { &[P, T, S, ("side", Bound::Kind)] },
            Trigger::Abroad => const { &[P, T, S, ("kind", Bound::Kind)] },
            Trigger::Gained => const { &[P, ("chip", Bound::Chip)] },
            Trigger::FollowerPlaced | Trigger::Returned => {
                const { &[P, ("follower", Bound::Follower)] }
            }
            Trigger::Scored => const { &[("feature", Bound::Feature)] },
            Trigger::TurnStart | Trigger::TurnEnd | Trigger::Answered => const { &[P] },
            Trigger::RoundEnd | Trigger::GameEnd => &[],
        }
    }
}

/// What a trigger binds: the kinds of game object a rule on it sees by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    Player,
    Tile,
    Square,
    /// A feature kind (road, city, field, monastery).
    Kind,
    Chip,
    Follower,
    Feature,
}

/// When an action is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Instead of drawing a tile.
    Start,
    /// Phase 2, after follower placement.
    Follower,
    /// Phase 3 (the default).
    Score,
    /// After the turn.
    After,
    /// Never on offer in a phase: an action with parameters, offered to a player by `ask`.
    Asked,
}
