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
        .block_on(ply_server::serve(ply_server::Config { addr: args.addr, database }))
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("ply serve")?;
    Ok(ExitCode::SUCCESS)
}
