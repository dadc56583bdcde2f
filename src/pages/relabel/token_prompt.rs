//! The access-token form shown when the Jev proxy answers 401: the token is kept in this
//! page's memory only ([`crate::api::set_proxy_token`]) and the request is asked again.

use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;

use crate::api;
use crate::api::ApiError;

use super::transport::unauthorized;

/// What a failed ask means for the token: `Some(refused)` when the proxy wants a token
/// (`refused`: the one given was wrong, and is forgotten), `None` for any other error.
pub fn token_needed(error: &ApiError) -> Option<bool> {
    if !unauthorized(error) {
        return None;
    }
    let refused = api::proxy_token().is_some();
    api::set_proxy_token(None);
    Some(refused)
}

/// The form; `retry` runs once a token is entered.
#[component]
pub fn TokenPrompt(refused: bool, retry: Callback<()>) -> impl IntoView {
    let input = NodeRef::<html::Input>::new();
    let submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let value = input.get().map(|i| i.value()).unwrap_or_default();
        let token = value.trim();
        if token.is_empty() {
            return;
        }
        api::set_proxy_token(Some(token.to_owned()));
        retry.run(());
    };
    let why = if refused {
        "The proxy refused that access token. Enter another one:"
    } else {
        "This Jev proxy needs an access token (ask whoever hosts it). It stays in this page's \
         memory only, until you reload or close it."
    };
    view! {
        <form class="token-prompt" data-testid="token-prompt" on:submit=submit>
            <p role="alert">{why}</p>
            <label>
                "Access token "
                <input type="password" autocomplete="off" spellcheck="false" node_ref=input data-testid="token-input" />
            </label>
            " "
            <button type="submit" class="primary" data-testid="token-submit">"Use token"</button>
        </form>
    }
}
