//! Shared helpers of the proxy integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{HeaderMap, Request, StatusCode};
use indexmap::IndexMap;
use runlens_proxy::{Backend, Config, LocalModel};
use serde_json::{Value, json};
use tower::ServiceExt;

/// A deterministic stand-in for the offline model: every noul 0.75; a choice gives its first
/// option 0.8 and shares 0.2 among the others; a score gives levels 0..3 (0.7, 0.2, 0.1). Its
/// own `confidence` numbers (0 and 1) are wrong on purpose: the proxy replaces them.
pub struct FixedModel;

impl LocalModel for FixedModel {
    fn model_id(&self) -> &str {
        "fixed-test-model"
    }

    fn answer(
        &self,
        _state: &Value,
        questions: &IndexMap<String, Value>,
    ) -> Result<IndexMap<String, Value>, String> {
        Ok(questions
            .iter()
            .map(|(id, q)| {
                let answer = match q["type"].as_str() {
                    Some("noul") => json!({"type": "noul", "noul": 0.75}),
                    Some("choice") => {
                        let names: Vec<String> = q["criteria"]
                            .as_object()
                            .map(|c| c.keys().cloned().collect())
                            .unwrap_or_default();
                        let rest = 0.2 / (names.len().max(2) - 1) as f64;
                        let probabilities: serde_json::Map<String, Value> = names
                            .iter()
                            .enumerate()
                            .map(|(i, n)| (n.clone(), json!(if i == 0 { 0.8 } else { rest })))
                            .collect();
                        json!({"type": "choice", "choice": names.first(), "confidence": 0.0, "probabilities": probabilities})
                    }
                    _ => json!({"type": "score", "score": 0.4, "confidence": 1.0, "legend": {},
                        "probabilities": {"0": 0.7, "1": 0.2, "2": 0.1}}),
                };
                (id.clone(), answer)
            })
            .collect())
    }
}

/// The harness-like request used across tests: one noul, one choice, one score.
pub fn three_questions() -> Value {
    json!({
        "model": "jev-1.13.0",
        "state": {"subject": "Duplicate charge", "message": "I was charged twice. Please fix this ASAP."},
        "questions": {
            "billing": {"type": "noul", "instructions": "Is this about billing?"},
            "team": {"type": "choice", "instructions": "Which team?", "criteria": {"billing": null, "technical": null}},
            "urgency": {"type": "score", "instructions": "How urgent?", "criteria": ["Can wait", "This week", "Today"]}
        }
    })
}

/// A temporary `dist` with index.html, a hashed wasm and a bundle.
pub fn temp_dist(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("runlens-proxy-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bundles")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>runlens</title>",
    )
    .unwrap();
    std::fs::write(
        dir.join("runlens-web-0123456789abcdef_bg.wasm"),
        b"\0asm\x01\0\0\0",
    )
    .unwrap();
    std::fs::write(dir.join("bundles/sample.json"), r#"{"from":"dist"}"#).unwrap();
    dir
}

/// The router with the fixed model and `config`.
pub fn local_app(config: Config) -> Router {
    runlens_proxy::app(config, Backend::Local(Arc::new(FixedModel))).unwrap()
}

/// A POST of `body` (JSON) to `path`.
pub fn post_json(path: &str, body: &Value) -> Request<Body> {
    Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// A GET of `path`.
pub fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).unwrap()
}

/// Sends one request through `app`; returns status, headers and the body as JSON (or a
/// JSON string holding the text when it is not JSON).
pub async fn send(app: &Router, request: Request<Body>) -> (StatusCode, HeaderMap, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::from(String::from_utf8_lossy(&bytes).into_owned()));
    (status, headers, body)
}

/// A `MakeWriter` collecting every log line, to check what is (not) logged.
#[derive(Clone, Default)]
pub struct LogCapture(pub Arc<Mutex<Vec<u8>>>);

impl LogCapture {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl Write for LogCapture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogCapture {
    type Writer = LogCapture;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// Installs a trace-level subscriber writing into a new capture, for this thread.
pub fn capture_logs() -> (LogCapture, tracing::subscriber::DefaultGuard) {
    let capture = LogCapture::default();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(capture.clone())
        .finish();
    let guard = tracing::subscriber::set_default(subscriber);
    (capture, guard)
}
