//! A rules config compiled once: the trajectory viewer and the re-label panel check every
//! cell they show against the same bundle's config, and compiling its regexes each time cost
//! more than the checks.

use std::cell::RefCell;
use std::rc::Rc;

use runlens_core::metrics::MetricsError;
use runlens_core::metrics::rule_checks::CompiledRules;
use runlens_core::rules::RulesConfig;

type Memo = Option<(RulesConfig, Rc<Result<CompiledRules, MetricsError>>)>;

thread_local! {
    static LAST: RefCell<Memo> = const { RefCell::new(None) };
}

/// `config` compiled (the last config's compilation is kept and reused while it is equal).
pub fn compiled_rules(config: &RulesConfig) -> Rc<Result<CompiledRules, MetricsError>> {
    LAST.with_borrow_mut(|last| {
        if let Some((c, compiled)) = last.as_ref()
            && c == config
        {
            return compiled.clone();
        }
        let compiled = Rc::new(CompiledRules::new(config));
        *last = Some((config.clone(), compiled.clone()));
        compiled
    })
}
