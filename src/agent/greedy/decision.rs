//! What a greedy agent knows about the decision it is valuing, forgotten in one place
//! ([`Decision::begin`]) when the next decision starts: whether the decision's sample was dealt,
//! whether the scratch copy was last loaded from it, whether the probe has the decision's chips,
//! the placement checks asked, and the values and answers worked out once per decision. A new
//! per-decision fact is a field here, so it cannot be left out of the reset.

use crate::agent::quiet;

#[derive(Default)]
pub(super) struct Decision {
    /// Whether the agent's `sample` holds this decision's sample.
    sampled: bool,
    /// Whether the scratch was last loaded from this decision's sample (then played an option).
    scratch_of_sample: bool,
    /// Whether this decision's sample is a plain copy of the game: nothing its options played in
    /// copies lead to reads what the player may not see (see `Greedy::plain_copies`).
    unsampled: bool,
    /// Whether the probe has this decision's chips.
    probed: bool,
    /// The placement checks asked of the probe in this decision (see `quiet::Placements`).
    placements: quiet::Placements,
    /// Whether no `returned` rule would run for any follower returning in this decision (worked
    /// out when first needed).
    returns_quiet: Option<bool>,
    /// The value of this decision's placements that leave the position as it stands
    /// (`Preview::leaves_as_it_stands`), once one was valued.
    as_it_stands_value: Option<f64>,
    /// Whether the preview has read this decision's position.
    preview_ready: bool,
}

impl Decision {
    /// Forgets everything known of the last decision.
    pub(super) fn begin(&mut self) {
        let Decision {
            sampled,
            scratch_of_sample,
            unsampled,
            probed,
            placements,
            returns_quiet,
            as_it_stands_value,
            preview_ready,
        } = self;
        *sampled = false;
        *scratch_of_sample = false;
        *unsampled = false;
        *probed = false;
        placements.clear();
        *returns_quiet = None;
        *as_it_stands_value = None;
        *preview_ready = false;
    }

    /// Whether the sample is to be dealt now (it was not yet in this decision); from here on it
    /// is, and the scratch was not loaded from it.
    pub(super) fn deal_sample(&mut self) -> bool {
        let deal = !self.sampled;
        if deal {
            self.sampled = true;
            self.scratch_of_sample = false;
        }
        deal
    }

    /// Whether the sample was dealt in this decision.
    pub(super) fn sampled(&self) -> bool {
        self.sampled
    }

    /// The sample was played in (as the last copy of the decision): it is dealt again if asked for.
    pub(super) fn sample_spent(&mut self) {
        self.sampled = false;
    }

    /// The scratch is loaded from the sample now; whether it was last time too.
    pub(super) fn load_scratch_from_sample(&mut self) -> bool {
        std::mem::replace(&mut self.scratch_of_sample, true)
    }

    /// Whether the sample is a plain copy of the game.
    pub(super) fn unsampled(&self) -> bool {
        self.unsampled
    }

    /// Sets whether the sample is a plain copy of the game.
    pub(super) fn set_unsampled(&mut self, plain: bool) {
        self.unsampled = plain;
    }

    /// Whether the probe has this decision's chips, to be set where it is loaded.
    pub(super) fn probed(&mut self) -> &mut bool {
        &mut self.probed
    }

    /// The placement checks asked in this decision.
    pub(super) fn placements(&mut self) -> &mut quiet::Placements {
        &mut self.placements
    }

    /// Whether no `returned` rule would run for a follower returning in this decision, worked out
    /// by `work` the first time it is asked.
    pub(super) fn returns_quiet(&mut self, work: impl FnOnce() -> bool) -> bool {
        *self.returns_quiet.get_or_insert_with(work)
    }

    /// The value of the placements that leave the position as it stands, once one was valued.
    pub(super) fn as_it_stands_value(&self) -> Option<f64> {
        self.as_it_stands_value
    }

    /// Remembers the value of the placements that leave the position as it stands.
    pub(super) fn set_as_it_stands_value(&mut self, v: f64) {
        self.as_it_stands_value = Some(v);
    }

    /// Whether the preview has read this decision's position.
    pub(super) fn preview_ready(&self) -> bool {
        self.preview_ready
    }

    /// The preview reads (or has read) this decision's position.
    pub(super) fn set_preview_ready(&mut self) {
        self.preview_ready = true;
    }
}
