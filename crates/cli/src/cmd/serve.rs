//! `runlens serve [--addr 127.0.0.1:8080] [--dist DIR] [--bundles DIR] [--site DIR] [--allow-origin URL]...`:
//! serve the dashboard, bundle files and a Jev-compatible API (see `docs/proxy.md`).
//!
//! The backend is `typesafe` when `TYPESAFE_API_KEY` is set (forwarding to
//! `TYPESAFE_BASE_URL`), else the embedded offline model. Once listening it prints one line
//! on stdout, `runlens serve: http://HOST:PORT/ (backend B, model M)`, which scripts wait for.

use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use runlens_proxy::access::AccessTokens;
use runlens_proxy::budget::BudgetConfig;
use runlens_proxy::{Backend, Config, Limits, Upstream, UpstreamConfig};
use tracing_subscriber::EnvFilter;

/// Arguments of `runlens serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (`127.0.0.1:0` picks a free port, printed on start-up).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The built dashboard (trunk's output).
    #[arg(long, default_value = "dist")]
    pub dist: PathBuf,
    /// Extra bundle files served at `/bundles/`, overlaid on `DIST/bundles/`.
    #[arg(long)]
    pub bundles: Option<PathBuf>,
    /// A report site written by `runlens site` (the app and its runs): served as `--dist`.
    #[arg(long, conflicts_with_all = ["dist", "bundles"])]
    pub site: Option<PathBuf>,
    /// An origin allowed to call the API from a browser (repeatable; none = no CORS).
    #[arg(long = "allow-origin", value_name = "URL")]
    pub allow_origins: Vec<String>,
    /// Who answers `/v1/systemone`.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,
    /// Upstream timeout per attempt, milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub upstream_timeout_ms: u64,
    /// Cap on the wait before the single upstream retry, milliseconds.
    #[arg(long, default_value_t = 5_000)]
    pub max_retry_wait_ms: u64,
    /// Sustained `/v1/systemone` requests per minute per client IP (0 = unlimited).
    #[arg(long, default_value_t = Limits::default().rate_per_minute)]
    pub rate_limit: u32,
    /// Requests a client may send at once before the sustained rate applies.
    #[arg(long, default_value_t = Limits::default().burst)]
    pub burst: u32,
    /// Decisions in flight at once; more wait (up to the queue timeout) then get 503.
    #[arg(long, default_value_t = Limits::default().max_in_flight, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..), usize::from))]
    pub max_in_flight: usize,
    /// Largest request body, bytes (larger gives 413).
    #[arg(long, default_value_t = Limits::default().max_body_bytes)]
    pub max_body_bytes: usize,
    /// Responses kept in the answer cache (0 disables it).
    #[arg(long, default_value_t = Config::default().cache_entries)]
    pub cache_entries: usize,
    /// Access tokens for `/v1/*`, one per line (`TOKEN` or `NAME TOKEN`); or set
    /// RUNLENS_ACCESS_TOKENS (comma-separated). Never on the command line.
    #[arg(long, value_name = "PATH")]
    pub tokens_file: Option<PathBuf>,
    /// Serve the TypeSafe backend on a non-loopback address without access tokens (anyone who
    /// can reach the server can spend the key).
    #[arg(long)]
    pub public_unauthenticated: bool,
    /// Decisions sent to the backend per UTC day, whole server (cache hits are free).
    #[arg(long, value_name = "N")]
    pub daily_budget: Option<u64>,
    /// Decisions sent to the backend per UTC day, per access token.
    #[arg(long, value_name = "N")]
    pub token_daily_budget: Option<u64>,
    /// Where the budgets' counts are kept across restarts.
    #[arg(long, value_name = "PATH", default_value = "runlens-budget.json")]
    pub budget_file: PathBuf,
    /// A reverse proxy whose X-Forwarded-For names the client for the rate limit (repeatable).
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Log JSON lines instead of text (stderr; level from RUST_LOG, default info).
    #[arg(long)]
    pub log_json: bool,
}

/// `--backend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendChoice {
    /// `typesafe` when TYPESAFE_API_KEY is set, else `local`.
    Auto,
    /// The embedded offline model.
    Local,
    /// TypeSafe's Jev (needs TYPESAFE_API_KEY).
    Typesafe,
}

/// The access tokens from `--tokens-file` or `RUNLENS_ACCESS_TOKENS` (the file wins).
fn access_tokens(args: &Args) -> anyhow::Result<Option<AccessTokens>> {
    if let Some(path) = &args.tokens_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading --tokens-file {}", path.display()))?;
        return AccessTokens::parse(&text, &path.display().to_string())
            .map(Some)
            .map_err(anyhow::Error::msg);
    }
    match std::env::var("RUNLENS_ACCESS_TOKENS") {
        Ok(text) if !text.trim().is_empty() => AccessTokens::parse(&text, "RUNLENS_ACCESS_TOKENS")
            .map(Some)
            .map_err(anyhow::Error::msg),
        _ => Ok(None),
    }
}

/// Refuses what would let strangers spend the TypeSafe key, or budgets that cannot apply.
fn check_exposure(
    args: &Args,
    backend: &Backend,
    tokens: Option<&AccessTokens>,
) -> anyhow::Result<()> {
    let exposed = !args.addr.ip().is_loopback();
    if exposed && tokens.is_none() && !args.public_unauthenticated && backend.name() == "typesafe" {
        bail!(
            "refusing to serve the typesafe backend on {} without access tokens: anyone who can \
             reach it could spend the TypeSafe key (set --tokens-file or RUNLENS_ACCESS_TOKENS, \
             listen on 127.0.0.1, or pass --public-unauthenticated to accept that)",
            args.addr
        );
    }
    if args.token_daily_budget.is_some() && tokens.is_none() {
        bail!("--token-daily-budget needs access tokens (--tokens-file or RUNLENS_ACCESS_TOKENS)");
    }
    Ok(())
}

/// Runs `runlens serve` until Ctrl-C or SIGTERM.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    init_logging(args.log_json);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(serve(args))?;
    Ok(ExitCode::SUCCESS)
}

async fn serve(mut args: Args) -> anyhow::Result<()> {
    if let Some(site) = args.site.take() {
        if !site.join("runs.json").is_file() {
            bail!(
                "{}: not a report site (no runs.json); write one with `runlens site`",
                site.display()
            );
        }
        args.dist = site;
    }
    let backend = build_backend(&args)?;
    let tokens = access_tokens(&args)?;
    check_exposure(&args, &backend, tokens.as_ref())?;
    let (backend_name, model) = (backend.name(), backend.model());
    if !args.dist.join("index.html").is_file() {
        tracing::warn!(dist = %args.dist.display(), "no index.html in --dist: only the API and bundles will work");
    }
    let config = Config {
        dist: args.dist,
        bundles: args.bundles,
        allow_origins: args.allow_origins,
        limits: Limits {
            max_body_bytes: args.max_body_bytes,
            rate_per_minute: args.rate_limit,
            burst: args.burst,
            max_in_flight: args.max_in_flight,
            ..Limits::default()
        },
        cache_entries: args.cache_entries,
        access_tokens: tokens,
        budget: (args.daily_budget.is_some() || args.token_daily_budget.is_some()).then(|| {
            BudgetConfig {
                daily: args.daily_budget,
                per_token_daily: args.token_daily_budget,
                state_file: args.budget_file.clone(),
            }
        }),
        trusted_proxies: args.trusted_proxies.clone(),
    };
    let access = match &config.access_tokens {
        Some(tokens) => format!("tokens {}", tokens.names().collect::<Vec<_>>().join(", ")),
        None => "open".to_owned(),
    };
    let router = runlens_proxy::app(config, backend)?;
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .with_context(|| format!("listening on {}", args.addr))?;
    let local = listener.local_addr().context("reading the bound address")?;
    // Listen for SIGTERM before announcing the URL, so a script that stops the server right
    // after the start-up line still gets a graceful shutdown.
    let shutdown = shutdown_signal(terminate_signal());
    println!("runlens serve: http://{local}/ (backend {backend_name}, model {model})");
    std::io::stdout()
        .flush()
        .context("writing the start-up line")?;
    tracing::info!(%local, backend = backend_name, model, access, "listening");
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
    .context("serving")?;
    tracing::info!("stopped");
    Ok(())
}

fn build_backend(args: &Args) -> anyhow::Result<Backend> {
    let upstream = match args.backend {
        BackendChoice::Local => None,
        _ => {
            UpstreamConfig::from_env(|name| std::env::var(name).ok()).map_err(anyhow::Error::msg)?
        }
    };
    match upstream {
        Some(mut config) => {
            config.timeout = Duration::from_millis(args.upstream_timeout_ms.max(1));
            config.max_retry_wait = Duration::from_millis(args.max_retry_wait_ms);
            Ok(Backend::TypeSafe(Upstream::new(config)?))
        }
        None if args.backend == BackendChoice::Typesafe => bail!(
            "--backend typesafe needs TYPESAFE_API_KEY, which is not set \
             (set it, or use --backend local for the offline model)"
        ),
        None => {
            let decider = runlens_sparrow::Decider::load_embedded()
                .context("loading the embedded offline model")?;
            Ok(Backend::Local(Arc::new(decider)))
        }
    }
}

fn init_logging(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}

#[cfg(unix)]
type TerminateSignal = Option<tokio::signal::unix::Signal>;
#[cfg(not(unix))]
type TerminateSignal = Option<()>;

/// The SIGTERM stream, registered now (`None` when registration fails).
#[cfg(unix)]
fn terminate_signal() -> TerminateSignal {
    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok()
}

#[cfg(not(unix))]
fn terminate_signal() -> TerminateSignal {
    None
}

#[cfg(unix)]
async fn next_terminate(signal: TerminateSignal) {
    match signal {
        Some(mut signal) => {
            signal.recv().await;
        }
        None => std::future::pending::<()>().await,
    }
}

#[cfg(not(unix))]
async fn next_terminate(_: TerminateSignal) {
    std::future::pending::<()>().await
}

async fn shutdown_signal(terminate: TerminateSignal) {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let terminate = next_terminate(terminate);
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(flags: &[&str]) -> Args {
        Cli::parse_from(std::iter::once("serve").chain(flags.iter().copied())).args
    }

    fn typesafe() -> Backend {
        let env = |name: &str| (name == "TYPESAFE_API_KEY").then(|| "sk-test".to_owned());
        let config = UpstreamConfig::from_env(env).unwrap().unwrap();
        Backend::TypeSafe(Upstream::new(config).unwrap())
    }

    #[test]
    fn only_a_public_typesafe_server_without_tokens_needs_the_explicit_flag() {
        let tokens = AccessTokens::parse("0123456789abcdef0123", "test").unwrap();
        let public = args(&["--addr", "0.0.0.0:8080"]);
        assert!(check_exposure(&public, &typesafe(), None).is_err());
        assert!(check_exposure(&public, &typesafe(), Some(&tokens)).is_ok());
        let decider = runlens_sparrow::Decider::load_embedded().unwrap();
        let local = Backend::Local(Arc::new(decider));
        assert!(check_exposure(&public, &local, None).is_ok());
        let accepted = args(&["--addr", "[::]:8080", "--public-unauthenticated"]);
        assert!(check_exposure(&accepted, &typesafe(), None).is_ok());
        let loopback = args(&["--addr", "[::1]:8080"]);
        assert!(check_exposure(&loopback, &typesafe(), None).is_ok());
        let per_token = args(&["--token-daily-budget", "5"]);
        let err = check_exposure(&per_token, &local, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--token-daily-budget needs access tokens (--tokens-file or RUNLENS_ACCESS_TOKENS)"
        );
    }
}
