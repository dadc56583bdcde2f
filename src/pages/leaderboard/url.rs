//! The leaderboard's keys in the page address (in the state layer, `src/layers.txt`): `lbsort`,
//! `loss`, `pool`.

use runlens_core::bundle::LossRule;

use crate::state::params::{Pairs, Sort, UrlParams};

/// The leaderboard's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoardParams {
    /// `lbsort`: sort of the leaderboard.
    pub sort: Option<Sort>,
    /// `loss=fail`: legacy `loss` cells score 0 (06_eval's tally) instead of being excluded
    /// as the harness's board does.
    pub loss: LossRule,
    /// `pool=1`: every corpus pooled into one board.
    pub pooled: bool,
}

impl UrlParams for BoardParams {
    fn read(&mut self, key: &str, value: &str) -> bool {
        match key {
            "lbsort" => self.sort = Sort::parse(value),
            "loss" => {
                self.loss = if value == "fail" {
                    LossRule::AsFail
                } else {
                    LossRule::Excluded
                };
            }
            "pool" => self.pooled = value == "1",
            _ => return false,
        }
        true
    }

    fn write(&self, out: &mut Pairs) {
        out.put("lbsort", self.sort.as_ref().map(Sort::to_param));
        out.put(
            "loss",
            (self.loss == LossRule::AsFail).then(|| "fail".to_owned()),
        );
        out.flag("pool", self.pooled);
    }
}
