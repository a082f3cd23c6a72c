//! `signet bench bare-axum`: the reference of `scripts/bench-api.sh`, a bare axum handler
//! returning a constant body the size of a department, on the runtime `signet serve` uses and in
//! the same binary, so that what the API adds is all that differs. (It was an example of the
//! server crate; building that with the server's dev-dependencies rebuilt much of the release
//! tree with other features.)

use axum::Router;
use axum::routing::get;
use clap::Args;

#[derive(Args, Debug)]
pub struct BenchBareArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: String,
}

const BODY: &str = "{\"departmentID\":1,\"departmentName\":\"Legal\"}";

pub fn run(args: BenchBareArgs) -> anyhow::Result<()> {
    super::runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&args.listen).await?;
        println!("bare axum listening on http://{}", listener.local_addr()?);
        let router = Router::new().route("/", get(|| async { BODY }));
        axum::serve(listener, router).await?;
        Ok(())
    })
}
