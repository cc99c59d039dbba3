//! `ply serve`: the browser app.

use std::net::SocketAddr;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on; port 0 picks a free port. The bound address is printed.
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub addr: SocketAddr,
    /// The database: `sqlite://FILE`, a file path or `sqlite::memory:`. Default: a SQLite
    /// file in the user's data folder (`$XDG_DATA_HOME/ply/ply.sqlite` or
    /// `~/.local/share/ply/ply.sqlite`), or `PLY_DATABASE_URL` when set.
    #[arg(long)]
    pub database: Option<String>,
    /// New games one address may create: at once, then per minute (0: no limit).
    #[arg(long, value_name = "BURST,PER_MINUTE", default_value = "20,20", value_parser = parse_limit)]
    pub create_limit: LimitArg,
    /// Game actions (moves, undos, draws, hints) one address may make: at once, then per
    /// minute (0: no limit).
    #[arg(long, value_name = "BURST,PER_MINUTE", default_value = "60,600", value_parser = parse_limit)]
    pub act_limit: LimitArg,
    /// Games against the computer's level 10 one address may create: at once, then per
    /// minute (0: no limit).
    #[arg(long, value_name = "BURST,PER_MINUTE", default_value = "4,4", value_parser = parse_limit)]
    pub strong_limit: LimitArg,
    /// Connections open at once (default: 90 % of the open-file limit, raised as far as the
    /// system allows).
    #[arg(long)]
    pub max_connections: Option<usize>,
    /// Clients come through a reverse proxy (nginx, Caddy) that appends their address to
    /// X-Forwarded-For: rate limits then count that address, not the proxy's. Only behind
    /// such a proxy: a client can write the header itself.
    #[arg(long)]
    pub behind_proxy: bool,
}

/// A rate limit as given on the command line (`None`: no limit).
#[derive(Clone, Copy, Debug)]
pub struct LimitArg(Option<ply_server::guard::Limit>);

/// `BURST,PER_MINUTE`, or `0` for no limit.
fn parse_limit(text: &str) -> Result<LimitArg, String> {
    if text.trim() == "0" {
        return Ok(LimitArg(None));
    }
    let (burst, per_minute) =
        text.split_once(',').ok_or_else(|| format!("'{text}' is not BURST,PER_MINUTE or 0"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("'{t}' in '{text}' is not a positive whole number"))
    };
    Ok(LimitArg(Some(ply_server::guard::Limit {
        burst: number(burst)?,
        per_minute: number(per_minute)?,
    })))
}

pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("PLY_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .try_init();
    let database = args
        .database
        .clone()
        .or_else(|| std::env::var("PLY_DATABASE_URL").ok().filter(|v| !v.is_empty()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime
        .block_on(ply_server::serve(ply_server::Config {
            addr: args.addr,
            database,
            limits: ply_server::guard::Limits {
                create: args.create_limit.0,
                act: args.act_limit.0,
                strong: args.strong_limit.0,
            },
            max_connections: args.max_connections,
            behind_proxy: args.behind_proxy,
        }))
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("ply serve")?;
    Ok(ExitCode::SUCCESS)
}
