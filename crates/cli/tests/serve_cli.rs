//! `runlens serve` as a process: the start-up line, answering over HTTP, a clean exit on
//! SIGTERM (graceful shutdown), `--backend typesafe` refusing to start without a key or on a
//! public address without access tokens, and tokens from the environment.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const START_LINE_END: &str = " (backend local, model sparrow-nano-general-v1.1)";

fn serve(dist: &std::path::Path, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_runlens"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--dist"])
        .arg(dist)
        .args(extra)
        .env_remove("TYPESAFE_API_KEY")
        .env_remove("TYPESAFE_BASE_URL")
        .env_remove("RUNLENS_ACCESS_TOKENS")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// One HTTP/1.1 GET with `Connection: close`; the whole response as text.
fn http_get(host: &str, path: &str) -> String {
    http_get_with(host, path, "")
}

/// Sends SIGTERM, waits up to 10 s for the exit, and returns it with everything on stderr.
fn terminate(child: &mut Child) -> (ExitStatus, String) {
    let kill = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = wait_for(child, Duration::from_secs(10));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status, stderr)
}

/// Waits up to `limit` for the child to exit; kills it and panics otherwise.
fn wait_for(child: &mut Child, limit: Duration) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("runlens serve did not exit within {limit:?} of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn serve_prints_its_url_answers_and_stops_cleanly_on_sigterm() {
    let dist = tempfile::tempdir().unwrap();
    let page = "<!doctype html><title>runlens test page</title>";
    std::fs::write(dist.path().join("index.html"), page).unwrap();
    let mut child = serve(dist.path(), &["--backend", "local"]).spawn().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    // `runlens serve: http://127.0.0.1:PORT/ (backend local, model sparrow-nano-general-v1.1)`
    let rest = line
        .trim_end()
        .strip_prefix("runlens serve: http://")
        .unwrap_or_else(|| panic!("start-up line: {line:?}"));
    let (url_rest, tail) = rest.split_once('/').unwrap();
    assert_eq!(format!(" {}", tail.trim_start()), START_LINE_END);
    let host = url_rest.to_owned();
    let port: u16 = host.strip_prefix("127.0.0.1:").unwrap().parse().unwrap();
    assert_ne!(port, 0);

    let index = http_get(&host, "/");
    assert!(index.starts_with("HTTP/1.1 200 OK\r\n"), "{index}");
    assert!(index.ends_with(page), "{index}");
    let health = http_get(&host, "/healthz");
    assert!(health.starts_with("HTTP/1.1 200 OK\r\n"), "{health}");
    assert!(
        health.contains(r#""backend":"local","model":"sparrow-nano-general-v1.1""#),
        "{health}"
    );

    let (status, stderr) = terminate(&mut child);
    assert_eq!(status.code(), Some(0), "exit status {status:?}");
    let lines: Vec<&str> = stderr.lines().collect();
    let at = |message: &str| {
        lines
            .iter()
            .position(|l| l.contains(" INFO ") && l.ends_with(&format!(": {message}")))
            .unwrap_or_else(|| panic!("no {message:?} line in:\n{stderr}"))
    };
    assert!(at("shutting down") < at("stopped"), "{stderr}");
    let mut after = String::new();
    stdout.read_to_string(&mut after).unwrap();
    assert_eq!(after, "", "only the start-up line goes to stdout");
}

#[test]
fn typesafe_backend_without_a_key_refuses_to_start() {
    let dist = tempfile::tempdir().unwrap();
    for key in [None, Some(""), Some("   ")] {
        let mut command = serve(dist.path(), &["--backend", "typesafe"]);
        if let Some(key) = key {
            command.env("TYPESAFE_API_KEY", key);
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(1), "key {key:?}");
        assert_eq!(String::from_utf8_lossy(&output.stdout), "");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "error: --backend typesafe needs TYPESAFE_API_KEY, which is not set \
             (set it, or use --backend local for the offline model)\n",
            "key {key:?}"
        );
    }
}

/// The flags' defaults, as `--help` states them: the SDK's 10 s upstream timeout, a 5 s cap
/// on the retry wait, 8 requests in flight.
#[test]
fn serve_help_states_the_upstream_and_in_flight_defaults() {
    let output = Command::new(env!("CARGO_BIN_EXE_runlens"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    // Long help (the enum flags list their values): each flag's block is its description,
    // then its default on a line of its own.
    let described = |flag: &str, text: &str, default: &str| {
        let mut lines = help
            .lines()
            .skip_while(|l| !l.trim_start().starts_with(flag));
        assert!(lines.next().is_some(), "no {flag} in:\n{help}");
        let block: Vec<&str> = lines
            .take_while(|l| !l.trim_start().starts_with("--"))
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(block, [text, default], "{flag}");
    };
    described(
        "--upstream-timeout-ms",
        "Upstream timeout per attempt, milliseconds",
        "[default: 10000]",
    );
    described(
        "--max-retry-wait-ms",
        "Cap on the wait before the single upstream retry, milliseconds",
        "[default: 5000]",
    );
    described(
        "--max-in-flight",
        "Decisions in flight at once; more wait (up to the queue timeout) then get 503",
        "[default: 8]",
    );
}

/// The TypeSafe key is never served unauthenticated beyond loopback by accident. (The check
/// runs before binding, so nothing listens on another address here.)
#[test]
fn the_typesafe_backend_on_a_public_address_without_tokens_refuses_to_start() {
    let dist = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_runlens"))
        .args([
            "serve",
            "--addr",
            "0.0.0.0:0",
            "--backend",
            "typesafe",
            "--dist",
        ])
        .arg(dist.path())
        .env("TYPESAFE_API_KEY", "sk-test-not-real")
        .env("TYPESAFE_BASE_URL", "http://127.0.0.1:9")
        .env_remove("RUNLENS_ACCESS_TOKENS")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: refusing to serve the typesafe backend on 0.0.0.0:0 without access tokens: \
         anyone who can reach it could spend the TypeSafe key (set --tokens-file or \
         RUNLENS_ACCESS_TOKENS, listen on 127.0.0.1, or pass --public-unauthenticated to \
         accept that)\n"
    );
}

/// One HTTP/1.1 GET with optional extra header lines; the whole response as text.
fn http_get_with(host: &str, path: &str, headers: &str) -> String {
    let mut stream = TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn tokens_from_the_environment_guard_the_api_and_are_never_logged() {
    let dist = tempfile::tempdir().unwrap();
    let token = "reviewer-0123456789abcdef";
    let mut child = serve(dist.path(), &["--backend", "local"])
        .env(
            "RUNLENS_ACCESS_TOKENS",
            format!("ana {token}, ben 0123456789abcdef-ben"),
        )
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let host = line
        .strip_prefix("runlens serve: http://")
        .and_then(|rest| rest.split_once('/'))
        .map(|(host, _)| host.to_owned())
        .unwrap_or_else(|| panic!("start-up line: {line:?}"));
    let refused = http_get(&host, "/v1/models");
    assert!(
        refused.starts_with("HTTP/1.1 401 Unauthorized\r\n"),
        "{refused}"
    );
    let answered = http_get_with(
        &host,
        "/v1/models",
        &format!("Authorization: Bearer {token}\r\n"),
    );
    assert!(answered.starts_with("HTTP/1.1 200 OK\r\n"), "{answered}");
    let (_, stderr) = terminate(&mut child);
    assert!(stderr.contains("access=\"tokens ana, ben\""), "{stderr}");
    assert!(!stderr.contains(token), "{stderr}");
}
