//! Model keys to display names, as the bundle's `models` list has them (the skeleton the page
//! holds keeps it): labels people read use names, `data-*` attributes and the URL keys.

use std::collections::HashMap;
use std::sync::Arc;

use runlens_core::bundle::Bundle;

/// A bundle's display names by model key (cheap to clone).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelNames(Arc<HashMap<String, String>>);

impl ModelNames {
    /// The names of `bundle`'s models.
    pub fn of(bundle: &Bundle) -> ModelNames {
        ModelNames(Arc::new(
            bundle
                .body
                .models
                .iter()
                .map(|m| (m.key.clone(), m.display_name.clone()))
                .collect(),
        ))
    }

    /// The display name of `key` (the key itself when the bundle names none).
    pub fn name(&self, key: &str) -> String {
        self.0
            .get(key)
            .filter(|n| !n.is_empty())
            .cloned()
            .unwrap_or_else(|| key.to_owned())
    }
}
