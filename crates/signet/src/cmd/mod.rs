pub mod backup;
pub mod bench;
pub mod bench_bare;
pub mod bench_esign;
pub mod bench_inputs;
pub mod bench_lot;
pub mod bench_lta;
pub mod bench_scale;
pub mod bench_token;
pub mod bench_workflows;
pub mod ca;
pub mod esp;
pub mod estamp_sim;
pub mod evidence;
pub mod gateway_client;
pub mod keys;
pub mod lot;
pub mod lta;
pub mod retention;
pub mod serve;
pub mod sign;
pub mod tenant;
pub mod verify;

/// A multi-threaded runtime for the async subcommands.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread().enable_all().build()?)
}
